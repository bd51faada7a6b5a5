//! Corrupt `.m3d` files, built in memory from our small samples (and from the soldier's text
//! read at test time): each must fail with the expected kind, as one line naming the file and
//! the section, and never panic.

mod common;
mod m3d_samples;

use throng::asset::{ErrorKind, LoadError, m3d};

use m3d_samples::{SKINNED, STATIC, edit};

/// `text` cut just before the first occurrence of `marker` (which must occur).
fn cut_before(text: &str, marker: &str) -> String {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("'{marker}' not in the text"));
    text[..at].to_string()
}

/// A corrupt variant: what it is, its bytes, and the expected kind and section.
struct Case {
    what: &'static str,
    bytes: Vec<u8>,
    kind: ErrorKind,
    section: &'static str,
}

fn case(
    what: &'static str,
    text: impl Into<Vec<u8>>,
    kind: ErrorKind,
    section: &'static str,
) -> Case {
    Case {
        what,
        bytes: text.into(),
        kind,
        section,
    }
}

fn parse_err(file: &str, bytes: &[u8]) -> LoadError {
    match m3d::parse(file, bytes, None) {
        Ok(_) => panic!("{file}: loaded, but it is corrupt"),
        Err(e) => e,
    }
}

fn check(file: &str, c: &Case) -> LoadError {
    let e = parse_err(file, &c.bytes);
    let line = e.to_string();
    assert_eq!(e.kind, c.kind, "{}: {line}", c.what);
    assert_eq!(e.section.as_deref(), Some(c.section), "{}: {line}", c.what);
    assert!(
        !line.contains('\n') && !line.contains('\r'),
        "{}: not one line: {line}",
        c.what
    );
    assert!(
        line.starts_with(&format!("{file}: {}: ", c.section)),
        "{}: {line}",
        c.what
    );
    e
}

fn synthetic_cases() -> Vec<Case> {
    use ErrorKind::*;
    let s = SKINNED;
    vec![
        case("empty file", "", Truncated, "m3d-File-Header"),
        case(
            "garbage bytes",
            &b"\x00\x9f\xff garbage \x01\x02"[..],
            Syntax,
            "m3d-File-Header",
        ),
        case(
            "truncated in the header",
            cut_before(s, "3\n#AnimationClips"),
            Truncated,
            "m3d-File-Header",
        ),
        case(
            "truncated in a material",
            cut_before(s, "NormalMap: shared_norm.dds\n\n***"),
            Truncated,
            "Materials",
        ),
        // Cut so short that two materials cannot fit in the whole file.
        case(
            "cut to the first material",
            cut_before(s, "0.2 0.3 0.8"),
            TooLarge,
            "m3d-File-Header",
        ),
        case(
            "truncated in a vertex",
            cut_before(s, "0 2 0\nTangent"),
            Truncated,
            "Vertices",
        ),
        case(
            "truncated in the triangles",
            cut_before(s, "1 3 2"),
            Truncated,
            "Triangles",
        ),
        case(
            "truncated in the offsets",
            cut_before(s, "BoneOffset2"),
            Truncated,
            "BoneOffsets",
        ),
        case(
            "truncated before the hierarchy",
            cut_before(s, "***************BoneHierarchy"),
            Truncated,
            "BoneHierarchy",
        ),
        case(
            "truncated in a key",
            cut_before(s, "0.7071068 0.7071068"),
            Truncated,
            "AnimationClips",
        ),
        case(
            "truncated before the clip's brace",
            cut_before(s, "}\n\tBone1"),
            Truncated,
            "AnimationClips",
        ),
        case(
            "one vertex more in the header",
            edit(s, "#Vertices 4", "#Vertices 5"),
            CountMismatch,
            "Vertices",
        ),
        case(
            "one vertex fewer in the header (and subset)",
            edit(
                &edit(s, "#Vertices 4", "#Vertices 3"),
                "VertexStart: 1 VertexCount: 3",
                "VertexStart: 1 VertexCount: 2",
            ),
            CountMismatch,
            "Vertices",
        ),
        case(
            "one triangle fewer in the header",
            edit(s, "#Triangles 2", "#Triangles 1"),
            IndexOutOfRange,
            "SubsetTable",
        ),
        case(
            "one triangle more in the header",
            edit(s, "#Triangles 2", "#Triangles 3"),
            CountMismatch,
            "Triangles",
        ),
        case(
            "one material more in the header",
            edit(s, "#Materials 2", "#Materials 3"),
            CountMismatch,
            "Materials",
        ),
        case(
            "one bone fewer in the header",
            edit(s, "#Bones 3", "#Bones 2"),
            IndexOutOfRange,
            "Vertices",
        ),
        case(
            "one clip more in the header",
            edit(s, "#AnimationClips 1", "#AnimationClips 2"),
            Truncated,
            "AnimationClips",
        ),
        case(
            "bad vertex index",
            edit(s, "1 3 2", "1 9 2"),
            IndexOutOfRange,
            "Triangles",
        ),
        case(
            "negative vertex index",
            edit(s, "1 3 2", "1 -3 2"),
            IndexOutOfRange,
            "Triangles",
        ),
        case(
            "bad bone index",
            edit(s, "BlendIndices: 2 0 0 0", "BlendIndices: 3 0 0 0"),
            IndexOutOfRange,
            "Vertices",
        ),
        case(
            "bad parent index",
            edit(s, "ParentIndexOfBone2: 1", "ParentIndexOfBone2: 7"),
            IndexOutOfRange,
            "BoneHierarchy",
        ),
        case(
            "parent below -1",
            edit(s, "ParentIndexOfBone2: 1", "ParentIndexOfBone2: -2"),
            IndexOutOfRange,
            "BoneHierarchy",
        ),
        case(
            "parents out of order",
            edit(s, "ParentIndexOfBone1: 0", "ParentIndexOfBone1: 2"),
            ParentOrder,
            "BoneHierarchy",
        ),
        case(
            "bone its own parent",
            edit(s, "ParentIndexOfBone0: -1", "ParentIndexOfBone0: 0"),
            ParentOrder,
            "BoneHierarchy",
        ),
        case(
            "bad material index",
            edit(s, "SubsetID: 1", "SubsetID: 4"),
            IndexOutOfRange,
            "SubsetTable",
        ),
        case(
            "subsets swapped",
            edit(s, "SubsetID: 1", "SubsetID: 0"),
            Invalid,
            "SubsetTable",
        ),
        case(
            "subset past the vertices",
            edit(
                s,
                "VertexStart: 1 VertexCount: 3",
                "VertexStart: 1 VertexCount: 9",
            ),
            IndexOutOfRange,
            "SubsetTable",
        ),
        case(
            "triangle outside its subset",
            edit(
                s,
                "VertexStart: 1 VertexCount: 3",
                "VertexStart: 2 VertexCount: 2",
            ),
            IndexOutOfRange,
            "SubsetTable",
        ),
        case(
            "NaN position",
            edit(s, "Position: 1 3 0", "Position: 1 NaN 0"),
            NonFinite,
            "Vertices",
        ),
        case(
            "infinite quaternion",
            edit(s, "Quat: 0 0 0.3826834", "Quat: 0 0 inf"),
            NonFinite,
            "AnimationClips",
        ),
        case(
            "float overflow",
            edit(s, "Roughness: 0.9", "Roughness: 1e39"),
            NonFinite,
            "Materials",
        ),
        case(
            "non-number",
            edit(s, "Roughness: 0.6", "Roughness: rough"),
            NotANumber,
            "Materials",
        ),
        case(
            "non-integer index",
            edit(s, "BlendIndices: 2 0 0 0", "BlendIndices: 2.0 0 0 0"),
            NotANumber,
            "Vertices",
        ),
        case(
            "garbage in a vertex",
            edit(s, "Tex-Coords: 1 0.5", "Tex-Coords: 1 \u{1}\u{7f}"),
            NotANumber,
            "Vertices",
        ),
        case(
            "huge vertex count",
            edit(s, "#Vertices 4", "#Vertices 4000000000"),
            TooLarge,
            "m3d-File-Header",
        ),
        case(
            "count beyond u32",
            edit(s, "#Vertices 4", "#Vertices 99999999999999999999"),
            TooLarge,
            "m3d-File-Header",
        ),
        case(
            "huge bone count",
            edit(s, "#Bones 3", "#Bones 70000"),
            TooLarge,
            "m3d-File-Header",
        ),
        case(
            "huge key count",
            edit(s, "#Keyframes: 3", "#Keyframes: 999999999"),
            TooLarge,
            "AnimationClips",
        ),
        case(
            "key count past the end",
            edit(s, "#Keyframes: 3", "#Keyframes: 30"),
            Truncated,
            "AnimationClips",
        ),
        case(
            "negative count",
            edit(s, "#Bones 3", "#Bones -3"),
            Invalid,
            "m3d-File-Header",
        ),
        case(
            "missing banner",
            edit(s, "***************SubsetTable*******************\n", ""),
            Syntax,
            "SubsetTable",
        ),
        case(
            "misspelt keyword",
            edit(s, "Tex-Coords: 0 0", "TexCoords: 0 0"),
            Syntax,
            "Vertices",
        ),
        case(
            "wrong bone label",
            edit(s, "BoneOffset1 ", "BoneOffset7 "),
            Syntax,
            "BoneOffsets",
        ),
        case(
            "offset not affine",
            edit(s, "0 0 1 0 0 -1 0 1", "0 0 1 0 0 -1 0 2"),
            Invalid,
            "BoneOffsets",
        ),
        case(
            "singular offset",
            edit(
                s,
                "BoneOffset2 1 0 0 0 0 1 0 0 0 0 1",
                "BoneOffset2 1 0 0 0 0 1 0 0 0 0 0",
            ),
            Invalid,
            "BoneOffsets",
        ),
        case(
            "negative weight",
            edit(s, "BlendWeights: 0.5 0.5 0 0", "BlendWeights: 1.5 -0.5 0 0"),
            Invalid,
            "Vertices",
        ),
        case(
            "all-zero weights",
            edit(s, "BlendWeights: 0.5 0.5 0 0", "BlendWeights: 0 0 0 0"),
            Invalid,
            "Vertices",
        ),
        case(
            "skinned vertex without weights",
            edit(s, "BlendWeights: 1 0 0 0\nBlendIndices: 2 0 0 0\n", ""),
            Invalid,
            "Vertices",
        ),
        case(
            "keys out of order",
            edit(s, "Time: 0.5 ", "Time: 1.5 "),
            Invalid,
            "AnimationClips",
        ),
        case(
            "negative key time",
            edit(s, "Time: 0 Pos: 0 1 0", "Time: -1 Pos: 0 1 0"),
            Invalid,
            "AnimationClips",
        ),
        case(
            "zero quaternion",
            edit(s, "Quat: 0 0 0.3826834 0.9238795", "Quat: 0 0 0 0"),
            Invalid,
            "AnimationClips",
        ),
        case(
            "AlphaClip 2",
            edit(s, "AlphaClip: 1", "AlphaClip: 2"),
            Invalid,
            "Materials",
        ),
        case(
            "roughness above 1",
            edit(s, "Roughness: 0.9", "Roughness: 1.5"),
            Invalid,
            "Materials",
        ),
        case(
            "mixed material layouts",
            edit(
                s,
                "Name: cloth\nDiffuse: 0.2 0.3 0.8\nFresnel0: 0.04 0.04 0.04\nRoughness: 0.9\nAlphaClip: 1\nMaterialTypeName: Skinned",
                "Ambient: 1 1 1\nDiffuse: 0.2 0.3 0.8\nSpecular: 0.04 0.04 0.04\nSpecPower: 8\nReflectivity: 0 0 0\nAlphaClip: 1\nEffect: Basic",
            ),
            Syntax,
            "Materials",
        ),
        case(
            "trailing garbage",
            format!("{s}junk\n"),
            Syntax,
            "AnimationClips",
        ),
        case(
            "duplicate clip",
            edit(s, "#AnimationClips 1", "#AnimationClips 2")
                + &s[s.find("AnimationClip wave").expect("clip")..],
            Invalid,
            "AnimationClips",
        ),
        case(
            "static with weights",
            edit(
                STATIC,
                "Tex-Coords: 1 0\n",
                "Tex-Coords: 1 0\nBlendWeights: 1 0 0 0\nBlendIndices: 0 0 0 0\n",
            ),
            Invalid,
            "Vertices",
        ),
        case(
            "static with clips",
            edit(STATIC, "#AnimationClips 0", "#AnimationClips 1"),
            Invalid,
            "m3d-File-Header",
        ),
        case(
            "static with a bone offset",
            format!("{STATIC}***BoneOffsets***\nBoneOffset0 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1\n"),
            CountMismatch,
            "BoneOffsets",
        ),
    ]
}

#[test]
fn corrupt_synthetic_files_fail_with_the_expected_kind_and_section() {
    let cases = synthetic_cases();
    assert!(cases.len() >= 20);
    for c in &cases {
        check("bad.m3d", c);
    }
}

#[test]
fn errors_name_the_record() {
    let s = SKINNED;
    let cases = [
        ("Position: 1 3 0", "Position: 1 NaN 0", "vertex 3"),
        ("1 3 2", "1 9 2", "triangle 1"),
        ("Time: 0.5 ", "Time: 1.5 ", "clip wave bone 1 key 2"),
        ("ParentIndexOfBone1: 0", "ParentIndexOfBone1: 2", "bone 1"),
        ("#Vertices 4", "#Vertices 4000000000", "#Vertices"),
        ("AlphaClip: 1", "AlphaClip: 2", "material 1"),
        (
            "VertexStart: 1 VertexCount: 3",
            "VertexStart: 2 VertexCount: 2",
            "subset 1",
        ),
        ("BoneOffset2 1", "BoneOffset2 x", "bone 2"),
    ];
    for (from, to, record) in cases {
        let e = parse_err("r.m3d", edit(s, from, to).as_bytes());
        assert_eq!(e.record.as_deref(), Some(record), "{to}: {e}");
    }
    let e = parse_err(
        "r.m3d",
        edit(s, "ParentIndexOfBone1: 0", "ParentIndexOfBone1: 2").as_bytes(),
    );
    assert_eq!(
        e.to_string(),
        "r.m3d: BoneHierarchy: bone 1 has parent 2, which does not come before it (line 71)"
    );
}

#[test]
fn corrupt_soldier_variants_fail_cleanly() {
    use ErrorKind::*;
    let path = common::shared_asset("m3d/soldier.m3d");
    let text = std::fs::read_to_string(&path).expect("soldier text");
    let cut_at = |fraction: f64| -> String {
        // Cut at a line break, so that no token is cut in half.
        let at = (text.len() as f64 * fraction) as usize;
        let at = text[..at].rfind('\n').expect("a line break");
        text[..at].to_string()
    };
    let cases = vec![
        // Cut so short that the header's vertex count cannot fit in what is left at all (13,748
        // vertices need at least 1.46 MB): the count is too large for the file.
        case("cut at 10%", cut_at(0.1), TooLarge, "m3d-File-Header"),
        case("cut at 40%", cut_at(0.4), Truncated, "Vertices"),
        case("cut at 60%", cut_at(0.6), Truncated, "Vertices"),
        case("cut at 85%", cut_at(0.85), Truncated, "Triangles"),
        case("cut at 99.9%", cut_at(0.999), Truncated, "AnimationClips"),
        case(
            "huge count",
            edit(&text, "#Vertices 13748", "#Vertices 4000000000"),
            TooLarge,
            "m3d-File-Header",
        ),
        case(
            "parent out of order",
            edit(&text, "ParentIndexOfBone5: 4", "ParentIndexOfBone5: 40"),
            ParentOrder,
            "BoneHierarchy",
        ),
        case(
            "NaN in a key",
            edit(
                &text,
                "Time: 0.0166666 Pos: 0.03756343 37.46099 2.230549 Scale: 1 1 1 Quat: -0.5000003",
                "Time: 0.0166666 Pos: 0.03756343 nan 2.230549 Scale: 1 1 1 Quat: -0.5000003",
            ),
            NonFinite,
            "AnimationClips",
        ),
    ];
    for c in &cases {
        check("soldier.m3d", c);
    }
    let parent = cases
        .iter()
        .find(|c| c.what == "parent out of order")
        .expect("case");
    let e = parse_err("soldier.m3d", &parent.bytes);
    assert_eq!(e.record.as_deref(), Some("bone 5"));
    assert!(
        e.to_string().starts_with(
            "soldier.m3d: BoneHierarchy: bone 5 has parent 40, which does not come before it"
        ),
        "{e}"
    );
}

#[test]
fn every_prefix_of_the_samples_fails_without_panicking() {
    for (name, text) in [("skinned.m3d", SKINNED), ("static.m3d", STATIC)] {
        let bytes = text.as_bytes();
        // Both samples are complete without their final line break, not a byte earlier.
        for len in 0..bytes.len() - 1 {
            let e = parse_err(name, &bytes[..len]);
            assert!(!e.to_string().contains('\n'), "{len}: {e}");
        }
    }
}
