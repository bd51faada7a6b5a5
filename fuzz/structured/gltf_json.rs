//! Structure-aware glTF inputs: a fuzzer's bytes read as choices (`arbitrary::Unstructured`)
//! that build a whole glTF JSON file with an embedded base64 buffer: node trees (deep chains,
//! cycles and double parents now and then), skins, meshes with skinning attributes, many
//! animations, materials with embedded images. Byte-level mutation rarely gets past the JSON
//! parser; this reaches the loader's later stages and the shapes that amplify (thousands of
//! clips over thousands of joints, long chains).
//!
//! Shared by the fuzz target (`fuzz/fuzz_targets/gltf_structured.rs`) and the corpus replay
//! in `cargo test` (`tests/gltf_structured_corpus.rs`), so a corpus file means the same
//! model in both.

use std::fmt::Write as _;

use arbitrary::{Result, Unstructured};

/// Floats that break things: zeros, signs, tiny, huge, near `f32::MAX`.
const FLOATS: [f32; 14] = [
    0.0, 1.0, -1.0, 0.5, 2.0, -0.0, 1e-30, 1e20, 3e38, -3e38, 0.70710677, 100.0, 1e-7, 7.25,
];

/// Accessor kinds: (`type`, componentType, components, bytes per component, normalized).
const KINDS: [(&str, u32, usize, usize, bool); 9] = [
    ("SCALAR", 5126, 1, 4, false), // times, weights
    ("VEC3", 5126, 3, 4, false),   // positions, translations, scales
    ("VEC4", 5126, 4, 4, false),   // rotations, weights
    ("MAT4", 5126, 16, 4, false),  // inverse bind matrices
    ("VEC4", 5121, 4, 1, false),   // JOINTS_0 as bytes
    ("VEC4", 5123, 4, 2, false),   // JOINTS_0 as shorts
    ("SCALAR", 5123, 1, 2, false), // indices
    ("VEC4", 5121, 4, 1, true),    // normalized weights
    ("VEC4", 5122, 4, 2, true),    // normalized rotations
];

/// One generated model as glTF JSON text.
pub fn gltf_json(u: &mut Unstructured) -> Result<String> {
    let mut buffer: Vec<u8> = Vec::new();
    let mut views: Vec<String> = Vec::new();
    let mut accessors: Vec<String> = Vec::new();
    // Accessor indices by kind, so references mostly fit their use.
    let mut by_kind: Vec<Vec<usize>> = vec![Vec::new(); KINDS.len()];

    // One accessor of every kind, then a few more of random kinds. Values come from a
    // pattern (two choices per accessor, not one per value) so that short inputs still
    // reach the nodes, skins and animations below.
    let vertex_count = u.int_in_range(4..=24usize)?;
    let extra = u.int_in_range(0..=6usize)?;
    let accessor_count = KINDS.len() + extra;
    for a in 0..accessor_count {
        let k = if a < KINDS.len() {
            a
        } else {
            u.choose_index(KINDS.len())?
        };
        let (ty, component, n, size, normalized) = KINDS[k];
        let count = if ty == "SCALAR" && component == 5123 {
            3 * u.int_in_range(1..=8usize)?
        } else if ty == "SCALAR" || ty == "MAT4" || rare(u, 1, 4)? {
            u.int_in_range(1..=24usize)?
        } else {
            // Vertex attributes of one mesh must agree on their count.
            vertex_count
        };
        let pattern: u32 = u.arbitrary()?;
        let raw = rare(u, 1, 8)?;
        let increasing = ty == "SCALAR" && component == 5126 && !raw;
        while !buffer.len().is_multiple_of(4) {
            buffer.push(0);
        }
        let offset = buffer.len();
        let mut min = [0f32; 3];
        let mut max = [0f32; 3];
        let mut state = pattern | 1;
        for e in 0..count {
            for c in 0..n {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                match size {
                    4 => {
                        let v = if increasing {
                            e as f32 * (1 + pattern % 4) as f32 / 24.0
                        } else if raw {
                            f32::from_bits(state)
                        } else if ty == "MAT4" {
                            // Mostly affine: the last row 0 0 0 1.
                            match c {
                                3 | 7 | 11 => 0.0,
                                15 => 1.0,
                                0 | 5 | 10 => 1.0,
                                _ => FLOATS[state as usize % 6],
                            }
                        } else {
                            FLOATS[state as usize % FLOATS.len()]
                        };
                        if n == 3 && v.is_finite() {
                            min[c] = min[c].min(v);
                            max[c] = max[c].max(v);
                        }
                        buffer.extend_from_slice(&v.to_le_bytes());
                    }
                    // Indices and joints: mostly small, now and then past the end.
                    2 if raw => buffer.extend_from_slice(&((state % 71) as u16).to_le_bytes()),
                    2 => buffer.extend_from_slice(&((state % 4) as u16).to_le_bytes()),
                    _ if normalized => buffer.push(state as u8),
                    _ => buffer.push((state % 8) as u8),
                }
            }
        }
        let length = buffer.len() - offset;
        views.push(format!(
            r#"{{"buffer":0,"byteOffset":{offset},"byteLength":{length}}}"#
        ));
        // Now and then a count that the view cannot hold.
        let declared = if rare(u, 1, 16)? {
            count + u.int_in_range(1..=1_000_000usize)?
        } else {
            count
        };
        let mut json = format!(
            r#"{{"bufferView":{},"componentType":{component},"count":{declared},"type":"{ty}""#,
            views.len() - 1
        );
        if normalized {
            json.push_str(r#","normalized":true"#);
        }
        if n == 3 {
            let _ = write!(
                json,
                r#","min":[{},{},{}],"max":[{},{},{}]"#,
                num(min[0]),
                num(min[1]),
                num(min[2]),
                num(max[0]),
                num(max[1]),
                num(max[2])
            );
        }
        json.push('}');
        accessors.push(json);
        by_kind[k].push(accessors.len() - 1);
    }
    let pick = |u: &mut Unstructured, kind: usize| -> Result<usize> {
        if by_kind[kind].is_empty() || rare(u, 1, 10)? {
            Ok(u.int_in_range(0..=accessor_count.max(1))?)
        } else {
            Ok(*u.choose(&by_kind[kind])?)
        }
    };

    // Nodes: mostly small trees; sometimes a long chain (the hierarchy must stay linear).
    let chain = rare(u, 1, 32)?;
    let node_count = if chain {
        u.int_in_range(100..=2_000usize)?
    } else {
        u.int_in_range(1..=40usize)?
    };
    let mut parent: Vec<Option<usize>> = vec![None; node_count];
    for (i, p) in parent.iter_mut().enumerate().skip(1) {
        *p = if chain {
            Some(i - 1)
        } else if rare(u, 1, 20)? {
            Some(u.int_in_range(0..=node_count)?) // may loop or point nowhere
        } else if u.ratio(3, 4)? {
            Some(u.int_in_range(0..=i - 1)?)
        } else {
            None
        };
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); node_count];
    for (i, p) in parent.iter().enumerate() {
        if let Some(p) = *p
            && let Some(list) = children.get_mut(p)
        {
            list.push(i);
        }
    }

    let skin_count = if rare(u, 1, 16)? {
        0
    } else if rare(u, 1, 6)? {
        u.int_in_range(2..=3usize)?
    } else {
        1
    };
    let mesh_count = u.int_in_range(1..=3usize)?;
    let mut nodes = Vec::with_capacity(node_count);
    for (i, kids) in children.iter().enumerate() {
        let mut fields: Vec<String> = Vec::new();
        if !kids.is_empty() {
            let list: Vec<String> = kids.iter().map(usize::to_string).collect();
            fields.push(format!(r#""children":[{}]"#, list.join(",")));
        }
        if !chain || i % 97 == 0 {
            node_transform(u, &mut fields)?;
            if mesh_count > 0 && u.ratio(1, 6)? {
                fields.push(format!(r#""mesh":{}"#, u.int_in_range(0..=mesh_count - 1)?));
                if skin_count > 0 && u.ratio(3, 4)? {
                    fields.push(format!(r#""skin":{}"#, u.int_in_range(0..=skin_count - 1)?));
                }
            }
            if rare(u, 1, 8)? {
                fields.push(format!(r#""name":"n{i}\u0007\n""#));
            }
        }
        nodes.push(format!("{{{}}}", fields.join(",")));
    }

    let mut skins = Vec::new();
    for _ in 0..skin_count {
        let joints = if chain && rare(u, 1, 2)? {
            // Every node of the chain, or its bottom: many joints or a deep fold above them.
            let from = if u.ratio(1, 2)? { 0 } else { node_count - 3 };
            (from..node_count).collect::<Vec<_>>()
        } else {
            let n = u.int_in_range(1..=12usize)?;
            let mut j = Vec::with_capacity(n);
            for _ in 0..n {
                j.push(u.int_in_range(0..=node_count - 1)?);
            }
            j
        };
        let list: Vec<String> = joints.iter().map(usize::to_string).collect();
        let mut skin = format!(r#"{{"joints":[{}]"#, list.join(","));
        if u.ratio(1, 2)? {
            let _ = write!(skin, r#","inverseBindMatrices":{}"#, pick(u, 3)?);
        }
        skin.push('}');
        skins.push(skin);
    }

    let material_count = u.int_in_range(0..=2usize)?;
    let mut meshes = Vec::new();
    for _ in 0..mesh_count {
        let mut primitives = Vec::new();
        for _ in 0..u.int_in_range(1..=2usize)? {
            let mut attributes = vec![format!(r#""POSITION":{}"#, pick(u, 1)?)];
            if u.ratio(4, 5)? {
                let joints = if u.ratio(1, 2)? { 4 } else { 5 };
                attributes.push(format!(r#""JOINTS_0":{}"#, pick(u, joints)?));
                let weights = if u.ratio(1, 2)? { 2 } else { 7 };
                attributes.push(format!(r#""WEIGHTS_0":{}"#, pick(u, weights)?));
            }
            if u.ratio(1, 4)? {
                attributes.push(format!(r#""NORMAL":{}"#, pick(u, 1)?));
            }
            let mut p = format!(r#"{{"attributes":{{{}}}"#, attributes.join(","));
            if u.ratio(2, 3)? {
                let _ = write!(p, r#","indices":{}"#, pick(u, 6)?);
            }
            if rare(u, 1, 10)? {
                let _ = write!(p, r#","mode":{}"#, u.int_in_range(0..=6u8)?);
            }
            if material_count > 0 && u.ratio(1, 2)? {
                let _ = write!(
                    p,
                    r#","material":{}"#,
                    u.int_in_range(0..=material_count - 1)?
                );
            }
            p.push('}');
            primitives.push(p);
        }
        meshes.push(format!(r#"{{"primitives":[{}]}}"#, primitives.join(",")));
    }

    // Images: a PNG signature and header with chosen dimensions (up to 2048 a side: the
    // lazy texture decoding of issue 11 bounds bigger ones), then arbitrary bytes.
    let mut images = Vec::new();
    for _ in 0..u.int_in_range(0..=2usize)? {
        while !buffer.len().is_multiple_of(4) {
            buffer.push(0);
        }
        let offset = buffer.len();
        buffer.extend_from_slice(&PNG_1X1);
        if u.ratio(1, 2)? {
            let w = u.int_in_range(1..=2048u32)?;
            let h = u.int_in_range(1..=2048u32)?;
            buffer[offset + 16..offset + 20].copy_from_slice(&w.to_be_bytes());
            buffer[offset + 20..offset + 24].copy_from_slice(&h.to_be_bytes());
            // A correct CRC, so the decoder believes the header.
            let crc = crc32(&buffer[offset + 12..offset + 29]);
            buffer[offset + 29..offset + 33].copy_from_slice(&crc.to_be_bytes());
        }
        if u.ratio(1, 3)? {
            let len = u.int_in_range(0..=64usize)?.min(u.len());
            let tail: &[u8] = u.bytes(len)?;
            buffer.extend_from_slice(tail);
        }
        views.push(format!(
            r#"{{"buffer":0,"byteOffset":{offset},"byteLength":{}}}"#,
            buffer.len() - offset
        ));
        images.push(format!(
            r#"{{"bufferView":{},"mimeType":"image/png"}}"#,
            views.len() - 1
        ));
    }
    let textures: Vec<String> = (0..images.len())
        .map(|i| format!(r#"{{"source":{i}}}"#))
        .collect();
    let mut materials = Vec::new();
    for m in 0..material_count {
        let mut pbr = String::from(r#""baseColorFactor":[1,0.5,0.25,1]"#);
        if !textures.is_empty() && u.ratio(2, 3)? {
            let _ = write!(
                pbr,
                r#","baseColorTexture":{{"index":{}}}"#,
                u.int_in_range(0..=textures.len() - 1)?
            );
        }
        materials.push(format!(
            r#"{{"name":"m{m}","pbrMetallicRoughness":{{{pbr}}}}}"#
        ));
    }

    // Animations: a few with channels, or (now and then) many, mostly empty.
    let many = rare(u, 1, 32)?;
    let animation_count = if many {
        u.int_in_range(50..=600usize)?
    } else {
        u.int_in_range(0..=4usize)?
    };
    let mut animations = Vec::with_capacity(animation_count);
    for a in 0..animation_count {
        let channel_count = if many && a > 0 {
            0
        } else {
            u.int_in_range(0..=6usize)?
        };
        let mut samplers = Vec::new();
        let mut channels = Vec::new();
        for c in 0..channel_count {
            let path = *u.choose(&["translation", "rotation", "scale", "weights", "bogus"])?;
            let output = match path {
                "rotation" if u.ratio(1, 3)? => pick(u, 8)?,
                "rotation" => pick(u, 2)?,
                _ => pick(u, 1)?,
            };
            let interpolation = *u.choose(&["LINEAR", "STEP", "CUBICSPLINE"])?;
            samplers.push(format!(
                r#"{{"input":{},"output":{output},"interpolation":"{interpolation}"}}"#,
                pick(u, 0)?
            ));
            let sampler = if rare(u, 1, 20)? { c + 1 } else { c };
            let node = u.int_in_range(0..=node_count)?;
            channels.push(format!(
                r#"{{"sampler":{sampler},"target":{{"node":{node},"path":"{path}"}}}}"#
            ));
        }
        animations.push(format!(
            r#"{{"channels":[{}],"samplers":[{}]}}"#,
            channels.join(","),
            samplers.join(",")
        ));
    }

    let mut json = String::from(r#"{"asset":{"version":"2.0"}"#);
    let uri = format!("data:application/octet-stream;base64,{}", base64(&buffer));
    let _ = write!(
        json,
        r#","buffers":[{{"byteLength":{},"uri":"{uri}"}}]"#,
        buffer.len()
    );
    for (key, items) in [
        ("bufferViews", &views),
        ("accessors", &accessors),
        ("nodes", &nodes),
        ("skins", &skins),
        ("meshes", &meshes),
        ("images", &images),
        ("textures", &textures),
        ("materials", &materials),
        ("animations", &animations),
    ] {
        if !items.is_empty() {
            let _ = write!(json, r#","{key}":[{}]"#, items.join(","));
        }
    }
    json.push('}');
    Ok(json)
}

/// True `n` times in `d`, and false once the input is used up (`Unstructured::ratio` then
/// says true, which would make every rare shape the default).
fn rare(u: &mut Unstructured, n: u8, d: u8) -> Result<bool> {
    Ok(!u.ratio(d - n, d)?)
}

/// Translation / rotation / scale, a matrix, or nothing.
fn node_transform(u: &mut Unstructured, fields: &mut Vec<String>) -> Result<()> {
    match u.int_in_range(0..=7u8)? {
        0 | 2 | 4 => {}
        7 => {
            let m: Vec<String> = (0..16)
                .map(|i| {
                    // Column-major: elements 3, 7, 11 and 15 are the last row.
                    if ![3, 7, 11, 15].contains(&i) && rare(u, 1, 3).unwrap_or(false) {
                        u.choose(&FLOATS).map(|f| num(*f))
                    } else {
                        Ok(if i % 5 == 0 { "1" } else { "0" }.to_string())
                    }
                })
                .collect::<Result<_>>()?;
            fields.push(format!(r#""matrix":[{}]"#, m.join(",")));
        }
        _ => {
            fields.push(format!(r#""translation":[{}]"#, floats(u, 3)?));
            if rare(u, 1, 4)? {
                fields.push(format!(r#""rotation":[{}]"#, floats(u, 4)?));
                fields.push(format!(r#""scale":[{}]"#, floats(u, 3)?));
            } else {
                // A rotation about one axis and a uniform scale: what real rigs hold.
                let half = f32::from(u.int_in_range(0..=7u8)?) * 0.2;
                let axis = u.int_in_range(0..=2usize)?;
                let mut q = [0.0f32, 0.0, 0.0, half.cos()];
                q[axis] = half.sin();
                let q: Vec<String> = q.iter().map(|x| num(*x)).collect();
                fields.push(format!(r#""rotation":[{}]"#, q.join(",")));
                let s = num(*u.choose(&[1.0f32, 2.0, 0.5, 100.0, -1.0])?);
                fields.push(format!(r#""scale":[{s},{s},{s}]"#));
            }
        }
    }
    Ok(())
}

/// `n` numbers from [`FLOATS`], comma-separated.
fn floats(u: &mut Unstructured, n: usize) -> Result<String> {
    let mut parts = Vec::with_capacity(n);
    for _ in 0..n {
        parts.push(num(*u.choose(&FLOATS)?));
    }
    Ok(parts.join(","))
}

/// A JSON number (non-finite values, which JSON cannot write, become 0).
fn num(f: f32) -> String {
    if f.is_finite() {
        format!("{f:e}")
    } else {
        "0".to_string()
    }
}

/// A valid 1x1 RGBA PNG; its IHDR width and height (bytes 16..24) are overwritten to claim
/// other sizes.
const PNG_1X1: [u8; 70] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xdf, 0xe0, 0xf0,
    0x1f, 0x00, 0x07, 0x00, 0x02, 0xbf, 0x2b, 0xd7, 0xc7, 0xe2, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// The CRC-32 of PNG chunks (IEEE, reflected), bit by bit: the header is 17 bytes.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}
