//! Corrupt `.x` files, generated in memory from a small valid sample: each must fail with the
//! expected kind, as one line naming the file and the section, and never panic. Every prefix
//! of the sample is tried too.

use throng::asset::{ErrorKind, LoadError, x};

const SMALL: &str = include_str!("x_samples/small.x");

/// `SMALL` with the first occurrence of `from` replaced by `to` (which must occur).
fn edit(from: &str, to: &str) -> String {
    assert!(SMALL.contains(from), "'{from}' not in the sample");
    SMALL.replacen(from, to, 1)
}

fn parse_err(bytes: &[u8]) -> LoadError {
    match x::parse("bad.x", bytes, None) {
        Ok(_) => panic!("loaded, but it is corrupt"),
        Err(e) => e,
    }
}

/// (what, text, kind, section the error names).
fn cases() -> Vec<(&'static str, String, ErrorKind, &'static str)> {
    use ErrorKind::*;
    let deep = format!(
        "xof 0303txt 0032\n{}{}",
        "Frame a {\n".repeat(300),
        "}\n".repeat(300)
    );
    vec![
        ("empty", String::new(), Truncated, "header"),
        (
            "not .x",
            "hello, world, this is not".into(),
            Syntax,
            "header",
        ),
        ("version", edit("0303txt", "0401txt"), Unsupported, "header"),
        (
            "unknown format",
            edit("0303txt", "0303xyz "),
            Syntax,
            "header",
        ),
        ("float size", edit("txt 0032", "txt 0016"), Syntax, "header"),
        ("stray brace", format!("{SMALL}\n}}"), Syntax, ""),
        (
            "unterminated string",
            edit("\"Spine\";", "\"Spine;"),
            Truncated,
            "Mesh 'body' > SkinWeights",
        ),
        (
            "ends in a frame",
            SMALL[..SMALL.find("Frame Spine").unwrap()].to_string(),
            Truncated,
            "Frame 'Hips'",
        ),
        (
            "letters for a number",
            edit("0;0;0;, 1;0;0;", "0;zero;0;, 1;0;0;"),
            NotANumber,
            "Mesh 'body'",
        ),
        (
            "not finite",
            edit("0;0;0;, 1;0;0;", "0;inf;0;, 1;0;0;"),
            NonFinite,
            "Mesh 'body'",
        ),
        (
            "negative count",
            edit("   5;\n   0;0;0;", "   -5;\n   0;0;0;"),
            NotANumber,
            "Mesh 'body'",
        ),
        (
            "count past the file",
            edit("   5;\n   0;0;0;", "   4000000000;\n   0;0;0;"),
            TooLarge,
            "Mesh 'body'",
        ),
        (
            "face index",
            edit("4;0,1,2,3;,", "4;0,1,2,9;,"),
            IndexOutOfRange,
            "Mesh 'body'",
        ),
        (
            "two-corner face",
            edit("4;0,1,2,3;,", "2;0,1;,"),
            Invalid,
            "Mesh 'body'",
        ),
        (
            "normal face corners",
            edit("4;0,0,0,0;,", "3;0,0,0;,"),
            CountMismatch,
            "Mesh 'body' > MeshNormals",
        ),
        (
            "normal index",
            edit("3;1,1,1;;", "3;1,1,7;;"),
            IndexOutOfRange,
            "Mesh 'body' > MeshNormals",
        ),
        (
            "texture coordinates",
            edit("    5;\n    0;0;, 1;0;", "    4;\n    0;0;, 1;0;"),
            CountMismatch,
            "Mesh 'body' > MeshTextureCoords",
        ),
        (
            "material index",
            edit("    1,\n    0;;", "    1,\n    2;;"),
            IndexOutOfRange,
            "Mesh 'body' > MeshMaterialList",
        ),
        (
            "unknown material",
            edit("{ Red }", "{ Green }"),
            IndexOutOfRange,
            "Mesh 'body' > MeshMaterialList",
        ),
        (
            "missing material",
            edit("    2;\n    2;\n    1,", "    3;\n    2;\n    1,"),
            CountMismatch,
            "Mesh 'body' > MeshMaterialList",
        ),
        (
            "skin vertex",
            edit("    0,1,2,3;", "    0,1,2,30;"),
            IndexOutOfRange,
            "SkinWeights 'Hips'",
        ),
        (
            "negative weight",
            edit("1.0,1.0,0.5,0.5;", "1.0,-1.0,0.5,0.5;"),
            Invalid,
            "SkinWeights 'Hips'",
        ),
        (
            "unknown bone",
            edit("\"Spine\";", "\"Neck\";"),
            IndexOutOfRange,
            "SkinWeights 'Neck'",
        ),
        (
            "projective offset",
            edit("0,-1,-0.5,1;;", "0,-1,-0.5,2;;"),
            Unsupported,
            "SkinWeights 'Hips'",
        ),
        (
            "projective frame",
            edit("0,0,1,1;;", "0,0,1,0;;"),
            Unsupported,
            "Frame 'Root'",
        ),
        (
            "two frame matrices",
            edit(
                "  Frame Spine {",
                "  FrameTransformMatrix { 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1;; }\n  Frame Spine {",
            ),
            Invalid,
            "Frame 'Hips'",
        ),
        (
            "key type",
            edit("   0;\n   2;\n   0;4;", "   7;\n   2;\n   0;4;"),
            Unsupported,
            "AnimationSet 'Wave' > Animation ''",
        ),
        (
            "key width",
            edit("0;4;0.7071068", "0;3;0.7071068"),
            CountMismatch,
            "AnimationSet 'Wave' > Animation ''",
        ),
        (
            "key order",
            edit("15;3;0,2,0;;;", "0;3;0,2,0;;;"),
            Invalid,
            "AnimationSet 'Wave' > Animation ''",
        ),
        (
            "zero rotation",
            edit("30;4;1,0,0,0;;;", "30;4;0,0,0,0;;;"),
            Invalid,
            "AnimationSet 'Wave' > Animation ''",
        ),
        (
            "no target",
            edit("  { Spine }\n", ""),
            Invalid,
            "AnimationSet 'Wave' > Animation ''",
        ),
        (
            "two targets",
            edit("  { Spine }\n", "  { Spine }\n  { Hips }\n"),
            Invalid,
            "AnimationSet 'Wave' > Animation ''",
        ),
        (
            "zero tick rate",
            edit(" 30;\n}", " 0;\n}"),
            Invalid,
            "AnimTicksPerSecond",
        ),
        (
            "two tick rates",
            format!("{SMALL}\nAnimTicksPerSecond {{ 24; }}\n"),
            Unsupported,
            "AnimTicksPerSecond",
        ),
        (
            "same set name",
            edit("AnimationSet {", "AnimationSet Wave {"),
            Invalid,
            "AnimationSet 'Wave'",
        ),
        ("too deep", deep, TooLarge, "Frame 'a'"),
        (
            "no mesh",
            "xof 0303txt 0032\nFrame a { }\n".into(),
            Unsupported,
            "",
        ),
    ]
}

#[test]
fn every_corrupt_variant_fails_with_one_line_naming_its_section() {
    for (what, text, kind, section) in cases() {
        let e = parse_err(text.as_bytes());
        let line = e.to_string();
        assert_eq!(e.kind, kind, "{what}: {line}");
        assert!(
            !line.contains('\n') && !line.contains('\r'),
            "{what}: {line}"
        );
        if section.is_empty() {
            assert!(line.starts_with("bad.x: "), "{what}: {line}");
        } else {
            assert!(
                line.starts_with(&format!("bad.x: {section}")),
                "{what}: {line}"
            );
        }
    }
}

#[test]
fn every_prefix_of_the_sample_loads_or_fails_cleanly() {
    let bytes = SMALL.as_bytes();
    let mut failed = 0;
    for end in 0..bytes.len() {
        if let Err(e) = x::parse("cut.x", &bytes[..end], None) {
            assert!(!e.to_string().contains('\n'), "{end}: {e}");
            failed += 1;
        }
    }
    // Only cuts between the two sets (a file with the first set) and in the trailing
    // whitespace can load.
    assert!(failed >= bytes.len() - 8, "{failed} of {}", bytes.len());
}

#[test]
fn every_single_byte_flip_loads_or_fails_cleanly() {
    let mut bytes = SMALL.as_bytes().to_vec();
    for at in 0..bytes.len() {
        let keep = bytes[at];
        for b in [b'{', b'}', b'"', b'9', b';', 0xff] {
            bytes[at] = b;
            if let Err(e) = x::parse("flip.x", &bytes, None) {
                assert!(!e.to_string().contains('\n'), "{at}: {e}");
            }
        }
        bytes[at] = keep;
    }
}

#[test]
fn many_sets_of_many_joints_are_refused_before_their_tracks_are_built() {
    // 1,000 bones and 200,000 empty sets: every clip would hold 1,000 tracks.
    let mut text = String::from("xof 0303txt 0032\n");
    for b in 0..1000 {
        text.push_str(&format!("Frame b{b} {{ }}\n"));
    }
    text.push_str("Mesh { 3; 0;0;0;, 1;0;0;, 0;1;0;; 1; 3;0,1,2;;\n");
    for b in 0..1000 {
        text.push_str(&format!(
            "SkinWeights {{ \"b{b}\"; 1; 0; 1.0; 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1;; }}\n"
        ));
    }
    text.push_str("}\n");
    text.push_str(&"AnimationSet { }\n".repeat(200_000));
    let e = parse_err(text.as_bytes());
    assert_eq!(e.kind, ErrorKind::TooLarge, "{e}");
    assert!(
        e.to_string()
            .starts_with("bad.x: AnimationSet: 200000 animation sets x 1000 joints of tracks need"),
        "{e}"
    );
}
