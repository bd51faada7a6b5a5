//! Small SDKMESH and `.sdkmesh_anim` files written from scratch for the tests, with the byte
//! offsets of their fields so corrupt-input tests can damage exactly one thing. The layout is
//! the format's documented C structs (see `src/asset/sdkmesh`), written independently here.
#![allow(dead_code)]

/// A frame: name, parent (`u32::MAX` for none), mesh (`u32::MAX` for none), and the local
/// matrix as a Direct3D row-vector matrix (translation in elements 12..15).
pub struct FrameSpec {
    pub name: &'static str,
    pub parent: u32,
    pub mesh: u32,
    pub matrix: [f32; 16],
}

/// A row-vector translation matrix.
pub fn translation(x: f32, y: f32, z: f32) -> [f32; 16] {
    let mut m = [0.0; 16];
    m[0] = 1.0;
    m[5] = 1.0;
    m[10] = 1.0;
    m[15] = 1.0;
    m[12] = x;
    m[13] = y;
    m[14] = z;
    m
}

/// Where things are in a generated file.
pub struct Offsets {
    pub header: usize,
    pub vertex_buffer: usize,
    pub index_buffer: usize,
    pub mesh: usize,
    pub subset: usize,
    pub frames: usize,
    pub material: usize,
    pub vertex_data: usize,
    pub index_data: usize,
}

pub const FRAME_SIZE: usize = 184;
pub const VERTEX_STRIDE: usize = 40;
pub const VERTEX_COUNT: usize = 4;

fn put_u32(out: &mut [u8], at: usize, v: u32) {
    out[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
fn put_u64(out: &mut [u8], at: usize, v: u64) {
    out[at..at + 8].copy_from_slice(&v.to_le_bytes());
}
fn put_f32(out: &mut [u8], at: usize, v: f32) {
    out[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
fn put_name(out: &mut [u8], at: usize, name: &str) {
    out[at..at + name.len()].copy_from_slice(name.as_bytes());
}

/// The standard frames: an empty-named root, `arm` under it, `hand` under `arm`, and a mesh
/// holder `skin` under the root.
pub fn standard_frames() -> Vec<FrameSpec> {
    vec![
        FrameSpec {
            name: "",
            parent: u32::MAX,
            mesh: u32::MAX,
            matrix: translation(0.0, 0.0, 0.0),
        },
        FrameSpec {
            name: "arm",
            parent: 0,
            mesh: u32::MAX,
            matrix: translation(0.0, 1.0, 0.0),
        },
        FrameSpec {
            name: "hand",
            parent: 1,
            mesh: u32::MAX,
            matrix: translation(1.0, 0.0, 0.0),
        },
        FrameSpec {
            name: "skin",
            parent: 0,
            mesh: 0,
            matrix: translation(0.0, 0.0, 0.0),
        },
    ]
}

/// A model of `frames` with one skinned mesh: four vertices, two triangles (16-bit
/// indices), a bone list of frames `bones`, one material.
pub fn model(frames: &[FrameSpec], bones: &[u32]) -> (Vec<u8>, Offsets) {
    let header = 0;
    let vertex_buffer = 104;
    let index_buffer = vertex_buffer + 288;
    let mesh = index_buffer + 32;
    let subset = mesh + 224;
    let frames_at = subset + 144;
    let material = frames_at + FRAME_SIZE * frames.len();
    let subset_list = material + 1256;
    let influence_list = subset_list + 8;
    let vertex_data = influence_list + 4 * bones.len().max(1);
    let index_data = vertex_data + VERTEX_STRIDE * VERTEX_COUNT;
    let end = index_data + 12;
    let mut out = vec![0u8; end];

    put_u32(&mut out, 0, 101);
    let counts = [1u32, 1, 1, 1, frames.len() as u32, 1];
    let offsets = [
        vertex_buffer,
        index_buffer,
        mesh,
        subset,
        frames_at,
        material,
    ];
    for (i, (count, offset)) in counts.iter().zip(offsets).enumerate() {
        put_u32(&mut out, 32 + 4 * i, *count);
        put_u64(&mut out, 56 + 8 * i, offset as u64);
    }

    // Vertex buffer: position FLOAT3, weights UBYTE4N, indices UBYTE4, normal FLOAT3,
    // texcoord FLOAT2 -- 12 + 4 + 4 + 12 + 8 = 40 bytes.
    let vb = vertex_buffer;
    put_u64(&mut out, vb, VERTEX_COUNT as u64);
    put_u64(&mut out, vb + 8, (VERTEX_COUNT * VERTEX_STRIDE) as u64);
    put_u64(&mut out, vb + 16, VERTEX_STRIDE as u64);
    let decl: [(u16, u16, u8, u8); 6] = [
        (0, 0, 2, 0),
        (0, 12, 8, 1),
        (0, 16, 5, 2),
        (0, 20, 2, 3),
        (0, 32, 1, 5),
        (0xFF, 0, 17, 0),
    ];
    for (k, (stream, offset, ty, usage)) in decl.iter().enumerate() {
        let at = vb + 24 + 8 * k;
        out[at..at + 2].copy_from_slice(&stream.to_le_bytes());
        out[at + 2..at + 4].copy_from_slice(&offset.to_le_bytes());
        out[at + 4] = *ty;
        out[at + 6] = *usage;
    }
    put_u64(&mut out, vb + 280, vertex_data as u64);

    let ib = index_buffer;
    put_u64(&mut out, ib, 6);
    put_u64(&mut out, ib + 8, 12);
    put_u32(&mut out, ib + 16, 0);
    put_u64(&mut out, ib + 24, index_data as u64);

    put_name(&mut out, mesh, "body");
    out[mesh + 100] = 1;
    put_u32(&mut out, mesh + 104, 0);
    put_u32(&mut out, mesh + 168, 0);
    put_u32(&mut out, mesh + 172, 1);
    put_u32(&mut out, mesh + 176, bones.len() as u32);
    put_u64(&mut out, mesh + 208, subset_list as u64);
    put_u64(&mut out, mesh + 216, influence_list as u64);

    put_name(&mut out, subset, "subset0");
    put_u32(&mut out, subset + 100, 0);
    put_u32(&mut out, subset + 104, 0);
    put_u64(&mut out, subset + 112, 0);
    put_u64(&mut out, subset + 120, 6);
    put_u64(&mut out, subset + 128, 0);
    put_u64(&mut out, subset + 136, VERTEX_COUNT as u64);

    for (i, f) in frames.iter().enumerate() {
        let at = frames_at + FRAME_SIZE * i;
        put_name(&mut out, at, f.name);
        put_u32(&mut out, at + 100, f.mesh);
        put_u32(&mut out, at + 104, f.parent);
        put_u32(&mut out, at + 108, u32::MAX);
        put_u32(&mut out, at + 112, u32::MAX);
        for (k, v) in f.matrix.iter().enumerate() {
            put_f32(&mut out, at + 116 + 4 * k, *v);
        }
        put_u32(&mut out, at + 180, u32::MAX);
    }

    put_name(&mut out, material, "skinM");
    put_name(&mut out, material + 360, "skin_diff.dds");
    for (k, c) in [0.5, 0.25, 1.0, 1.0].iter().enumerate() {
        put_f32(&mut out, material + 1140 + 4 * k, *c);
    }

    put_u32(&mut out, subset_list, 0);
    for (k, b) in bones.iter().enumerate() {
        put_u32(&mut out, influence_list + 4 * k, *b);
    }

    // A quad in the xy plane from y = 0 to y = 2: the bottom follows bone 0, the top bone 1
    // (when there are two), the middle is shared half and half.
    let positions = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 2.0, 0.0],
        [1.0, 2.0, 0.0],
    ];
    let last = bones.len().saturating_sub(1) as u8;
    let blends: [([u8; 4], [u8; 4]); 4] = [
        ([255, 0, 0, 0], [0, 0, 0, 0]),
        ([128, 127, 0, 0], [0, last, 0, 0]),
        ([0, 255, 0, 0], [0, last, 0, 0]),
        ([255, 0, 0, 0], [last, 0, 0, 0]),
    ];
    for (v, (p, (w, j))) in positions.iter().zip(blends).enumerate() {
        let at = vertex_data + VERTEX_STRIDE * v;
        for (k, x) in p.iter().enumerate() {
            put_f32(&mut out, at + 4 * k, *x);
        }
        out[at + 12..at + 16].copy_from_slice(&w);
        out[at + 16..at + 20].copy_from_slice(&j);
        put_f32(&mut out, at + 28, 1.0); // normal +z
        put_f32(&mut out, at + 32, p[0]);
        put_f32(&mut out, at + 36, p[1] / 2.0);
    }
    for (k, i) in [0u16, 1, 2, 2, 1, 3].iter().enumerate() {
        out[index_data + 2 * k..index_data + 2 * k + 2].copy_from_slice(&i.to_le_bytes());
    }
    (
        out,
        Offsets {
            header,
            vertex_buffer,
            index_buffer,
            mesh,
            subset,
            frames: frames_at,
            material,
            vertex_data,
            index_data,
        },
    )
}

/// The standard model: [`standard_frames`], bones `arm` and `hand`.
pub fn standard_model() -> (Vec<u8>, Offsets) {
    model(&standard_frames(), &[1, 2])
}

/// One key: translation, quaternion (x, y, z, w), scale.
#[derive(Clone, Copy)]
pub struct Key {
    pub t: [f32; 3],
    pub q: [f32; 4],
    pub s: [f32; 3],
}

/// An animation file at `fps` with one track per `(name, keys)`; every track must have the
/// same number of keys. Returns the bytes and the offset of each track's keys.
pub fn animation(fps: u32, tracks: &[(&str, Vec<Key>)]) -> (Vec<u8>, Vec<usize>) {
    let keys = tracks.first().map_or(0, |t| t.1.len());
    let table = 40;
    let data = table + 112 * tracks.len();
    let mut out = vec![0u8; data + tracks.len() * keys * 40];
    put_u32(&mut out, 0, 101);
    put_u32(&mut out, 12, tracks.len() as u32);
    put_u32(&mut out, 16, keys as u32);
    put_u32(&mut out, 20, fps);
    let size = (out.len() - 40) as u64;
    put_u64(&mut out, 24, size);
    put_u64(&mut out, 32, table as u64);
    let mut starts = Vec::new();
    for (i, (name, ks)) in tracks.iter().enumerate() {
        let at = table + 112 * i;
        put_name(&mut out, at, name);
        let start = data + i * keys * 40;
        put_u64(&mut out, at + 104, (start - 40) as u64);
        starts.push(start);
        for (k, key) in ks.iter().enumerate() {
            let kat = start + 40 * k;
            let values = [
                key.t[0], key.t[1], key.t[2], key.q[0], key.q[1], key.q[2], key.q[3], key.s[0],
                key.s[1], key.s[2],
            ];
            for (n, v) in values.iter().enumerate() {
                put_f32(&mut out, kat + 4 * n, *v);
            }
        }
    }
    (out, starts)
}

/// The standard animation: `arm` turns a quarter about z over two keys at 2 fps (`hand`'s
/// first track is overridden by a later one of the same name that holds it still), and a
/// track for a frame that does not exist.
pub fn standard_animation() -> Vec<u8> {
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let arm = vec![
        Key {
            t: [0.0, 1.0, 0.0],
            q: [0.0, 0.0, 0.0, 0.0],
            s: [1.0; 3],
        },
        Key {
            t: [0.0, 1.0, 0.0],
            q: [0.0, 0.0, h, h],
            s: [1.0; 3],
        },
    ];
    let hand_early = vec![
        Key {
            t: [5.0, 0.0, 0.0],
            q: [1.0, 0.0, 0.0, 0.0],
            s: [1.0; 3],
        };
        2
    ];
    let hand_late = vec![
        Key {
            t: [1.0, 0.0, 0.0],
            q: [0.0, 0.0, 0.0, 1.0],
            s: [1.0; 3],
        };
        2
    ];
    let ghost = hand_late.clone();
    animation(
        2,
        &[
            ("hand", hand_early),
            ("arm", arm),
            ("nobody", ghost),
            ("hand", hand_late),
        ],
    )
    .0
}

/// Writes `bytes` over `file` at `at`.
pub fn patch(file: &[u8], at: usize, bytes: &[u8]) -> Vec<u8> {
    let mut out = file.to_vec();
    out[at..at + bytes.len()].copy_from_slice(bytes);
    out
}
