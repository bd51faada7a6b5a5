//! DDS textures: files generated here (uncompressed with masks, BC1, BC3 and BC7 with mip
//! chains) probed and decoded, their texels checked against values computed from the format
//! specifications in this file; strict header checks; an `.m3d` naming a DDS normal map; and
//! the DirectX SDK's `Tiny_skin.dds`.

mod common;
mod m3d_samples;

use std::sync::Arc;

use throng::anim::TextureEncoding;
use throng::asset::LoadOptions;
use throng::asset::texture::{self, BlockFormat, TexelFormat};

const DDSD_MIPMAPCOUNT: u32 = 0x20000;
const DDPF_ALPHAPIXELS: u32 = 0x1;
const DDPF_FOURCC: u32 = 0x4;
const DDPF_RGB: u32 = 0x40;

/// The pixel format part of a header.
#[derive(Clone, Copy)]
enum Pf {
    FourCc(&'static [u8; 4]),
    /// Bits per pixel, flags, masks (r, g, b, a).
    Masks(u32, u32, [u32; 4]),
}

/// A DDS file: header (+ DX10 header when `dxgi` is given) and `data` as given.
fn dds(width: u32, height: u32, mips: u32, pf: Pf, dxgi: Option<u32>, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut put = |v: u32| out.extend_from_slice(&v.to_le_bytes());
    put(u32::from_le_bytes(*b"DDS "));
    put(124);
    put(0x1007 | DDSD_MIPMAPCOUNT);
    put(height);
    put(width);
    put(0); // pitch or linear size: not relied on
    put(0); // depth
    put(mips);
    for _ in 0..11 {
        put(0);
    }
    put(32);
    match (pf, dxgi) {
        (_, Some(_)) => {
            put(DDPF_FOURCC);
            put(u32::from_le_bytes(*b"DX10"));
            (0..5).for_each(|_| put(0));
        }
        (Pf::FourCc(code), None) => {
            put(DDPF_FOURCC);
            put(u32::from_le_bytes(*code));
            (0..5).for_each(|_| put(0));
        }
        (Pf::Masks(bits, flags, m), None) => {
            put(flags);
            put(0);
            put(bits);
            m.iter().for_each(|&v| put(v));
        }
    }
    put(0x1000 | if mips > 1 { 0x400008 } else { 0 });
    (0..4).for_each(|_| put(0));
    if let Some(format) = dxgi {
        put(format);
        put(3); // TEXTURE2D
        put(0);
        put(1);
        put(0);
    }
    out.extend_from_slice(data);
    out
}

fn probe(bytes: Vec<u8>) -> Result<throng::anim::Texture, String> {
    texture::probe("t.dds", Arc::from(bytes))
}

/// RGB565 to 8 bits per channel by bit replication, as the BC1 specification expands it.
fn expand565(c: u16) -> [u8; 3] {
    let (r, g, b) = (c >> 11, (c >> 5) & 63, c & 31);
    [
        ((r << 3) | (r >> 2)) as u8,
        ((g << 2) | (g >> 4)) as u8,
        ((b << 3) | (b >> 2)) as u8,
    ]
}

/// Whether `px` is `rgb` (within one step: decoders may expand 565 by bit replication or by
/// rounding the exact ratio, and both are within the format's tolerance) with alpha `a`.
fn close(px: &[u8], rgb: [u8; 3], a: u8) -> bool {
    px[..3].iter().zip(rgb).all(|(&p, q)| p.abs_diff(q) <= 1) && px[3] == a
}

/// A BC1 block of one colour: both endpoints `c`, every index 0.
fn bc1_constant(c: u16) -> [u8; 8] {
    let mut b = [0u8; 8];
    b[..2].copy_from_slice(&c.to_le_bytes());
    b[2..4].copy_from_slice(&c.to_le_bytes());
    b
}

/// A BC3 block of one colour and one alpha: alpha endpoints `a`, colour endpoints `c`.
fn bc3_constant(c: u16, a: u8) -> [u8; 16] {
    let mut b = [0u8; 16];
    b[0] = a;
    b[1] = a;
    b[8..].copy_from_slice(&bc1_constant(c));
    b
}

/// A BC7 mode-6 block of one colour: 7-bit endpoints `rgba7` (both equal), p-bits `p`, every
/// index 0, so each texel is `(v << 1) | p` (BC7 specification, mode 6).
fn bc7_mode6_constant(rgba7: [u8; 4], p: u8) -> [u8; 16] {
    let mut bits: u128 = 1 << 6; // mode 6: six zero bits, then a one
    let mut at = 7;
    let mut push = |v: u128, n: u32| {
        bits |= v << at;
        at += n;
    };
    for c in rgba7 {
        push(u128::from(c), 7);
        push(u128::from(c), 7);
    }
    push(u128::from(p), 1);
    push(u128::from(p), 1);
    // The 63 index bits stay zero.
    bits.to_le_bytes()
}

fn chain_bytes(mut w: u32, mut h: u32, mips: u32, block: usize) -> usize {
    let mut n = 0;
    for _ in 0..mips {
        n += w.div_ceil(4) as usize * h.div_ceil(4) as usize * block;
        w = (w / 2).max(1);
        h = (h / 2).max(1);
    }
    n
}

#[test]
fn uncompressed_a8r8g8b8_with_mips_is_swizzled_to_rgba() {
    // 4x2, 2x1, 1x1: 11 pixels stored B, G, R, A.
    let data: Vec<u8> = (0..11u8)
        .flat_map(|i| [i, 100 + i, 200 + i % 50, 10 * i])
        .collect();
    let pf = Pf::Masks(
        32,
        DDPF_RGB | DDPF_ALPHAPIXELS,
        [0xff_0000, 0xff00, 0xff, 0xff00_0000],
    );
    let t = probe(dds(4, 2, 3, pf, None, &data)).expect("probes");
    assert_eq!(
        (t.width, t.height, t.encoding),
        (4, 2, TextureEncoding::Dds)
    );
    let d = texture::decode(&t).expect("decodes");
    assert_eq!(d.format, TexelFormat::Rgba8);
    assert_eq!(
        d.levels.iter().map(Vec::len).collect::<Vec<_>>(),
        [32, 8, 4]
    );
    let all: Vec<u8> = d.levels.concat();
    for i in 0..11u8 {
        let px = &all[i as usize * 4..][..4];
        assert_eq!(px, [200 + i % 50, 100 + i, i, 10 * i], "pixel {i}");
    }
    // X8R8G8B8 (no alpha flag): opaque whatever the fourth byte holds; R5G6B5 scaled up.
    let x = Pf::Masks(32, DDPF_RGB, [0xff_0000, 0xff00, 0xff, 0]);
    let d = texture::decode(&probe(dds(1, 1, 1, x, None, &[1, 2, 3, 0])).expect("x8"))
        .expect("decodes");
    assert_eq!(d.levels[0], [3, 2, 1, 255]);
    let r565 = Pf::Masks(16, DDPF_RGB, [0xf800, 0x07e0, 0x001f, 0]);
    let white_red = 0xf800u16.to_le_bytes();
    let d = texture::decode(&probe(dds(1, 1, 1, r565, None, &white_red)).expect("565"))
        .expect("decodes");
    assert_eq!(d.levels[0], [255, 0, 0, 255]);
}

#[test]
fn bc1_with_mips_keeps_its_blocks_and_decodes_to_the_specified_colour() {
    let colour = (22u16 << 11) | (45 << 5) | 9;
    let (w, h, mips) = (8, 8, 4);
    let blocks = chain_bytes(w, h, mips, 8) / 8;
    let data: Vec<u8> = (0..blocks).flat_map(|_| bc1_constant(colour)).collect();
    let t = probe(dds(w, h, mips, Pf::FourCc(b"DXT1"), None, &data)).expect("probes");
    let d = texture::decode(&t).expect("decodes");
    assert_eq!(d.format, TexelFormat::Block(BlockFormat::Bc1));
    assert_eq!(d.levels.len(), 4);
    assert_eq!(d.levels.concat(), data, "blocks as stored");
    let rgba = d.to_rgba8(true);
    let [r, g, b] = expand565(colour);
    for (i, level) in rgba.levels.iter().enumerate() {
        let (lw, lh) = d.level_size(i);
        assert_eq!(level.len(), (lw * lh * 4) as usize);
        assert!(
            level.chunks_exact(4).all(|p| close(p, [r, g, b], 255)),
            "level {i}"
        );
    }
}

#[test]
fn bc3_and_bc7_decode_to_the_specified_colour_and_alpha() {
    let colour = (3u16 << 11) | (60 << 5) | 30;
    let data: Vec<u8> = (0..chain_bytes(4, 4, 3, 16) / 16)
        .flat_map(|_| bc3_constant(colour, 200))
        .collect();
    // 4x4 has three levels (4x4, 2x2, 1x1), each one block.
    let t = probe(dds(4, 4, 3, Pf::FourCc(b"DXT5"), None, &data)).expect("bc3");
    let d = texture::decode(&t).expect("decodes").to_rgba8(true);
    let [r, g, b] = expand565(colour);
    let got = d.levels.concat();
    assert!(
        got.chunks_exact(4).all(|p| close(p, [r, g, b], 200)),
        "{:?} vs {:?}",
        &got[..4],
        [r, g, b, 200]
    );

    let (rgba7, p) = ([100u8, 20, 127, 64], 1u8);
    let data: Vec<u8> = (0..chain_bytes(8, 4, 4, 16) / 16)
        .flat_map(|_| bc7_mode6_constant(rgba7, p))
        .collect();
    const DXGI_BC7_UNORM: u32 = 98;
    let t = probe(dds(
        8,
        4,
        4,
        Pf::FourCc(b"DX10"),
        Some(DXGI_BC7_UNORM),
        &data,
    ))
    .expect("bc7");
    let d = texture::decode(&t).expect("decodes");
    assert_eq!(d.format, TexelFormat::Block(BlockFormat::Bc7));
    assert_eq!(d.levels.len(), 4);
    let want = rgba7.map(|v| (v << 1) | p);
    let rgba = d.to_rgba8(false);
    assert!(rgba.levels.concat().chunks_exact(4).all(|px| px == want));
}

#[test]
fn headers_that_disagree_with_the_data_are_refused_in_one_line() {
    let bc1 = |w, h, mips, extra: isize| {
        let n = (chain_bytes(w, h, mips, 8) as isize + extra) as usize;
        dds(w, h, mips, Pf::FourCc(b"DXT1"), None, &vec![0u8; n])
    };
    let mut cube = bc1(4, 4, 1, 0);
    cube[4 + 108..4 + 112].copy_from_slice(&0xfe00u32.to_le_bytes());
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("one byte short", bc1(8, 8, 4, -1), "needs"),
        ("one byte too many", bc1(8, 8, 4, 1), "needs"),
        (
            "more mips than the size allows",
            bc1(8, 8, 5, 0),
            "at most 4",
        ),
        ("a cube map", cube, "cube map"),
        (
            "an unknown FourCC",
            dds(4, 4, 1, Pf::FourCc(b"ABCD"), None, &[0; 8]),
            "'ABCD'",
        ),
        ("a cut header", b"DDS |\0\0\0".to_vec(), "shorter"),
        ("zero width", bc1(0, 4, 1, 0), "no pixels"),
        ("too large", bc1(20000, 4, 1, 0), "limit"),
        (
            "masks that overlap",
            dds(
                1,
                1,
                1,
                Pf::Masks(32, DDPF_RGB, [0xffff, 0xff00, 0xff, 0]),
                None,
                &[0; 4],
            ),
            "overlap",
        ),
    ];
    for (what, bytes, says) in cases {
        let err = probe(bytes).expect_err(what);
        assert!(err.contains(says), "{what}: {err}");
        assert!(!err.contains('\n'), "{what}: {err}");
    }
}

#[test]
fn tiny_skin_dds_loads_as_a_256_pixel_x8r8g8b8_texture() {
    let path = common::shared_asset("dxsdk/Tiny_skin.dds");
    let dir = path.parent().expect("folder");
    let t = texture::load_beside(dir, "Tiny_skin.dds", &LoadOptions::default())
        .expect("Tiny_skin.dds loads");
    assert_eq!(
        (t.width, t.height, t.encoding),
        (256, 256, TextureEncoding::Dds)
    );
    let d = texture::decode(&t).expect("decodes");
    assert_eq!((d.format, d.levels.len()), (TexelFormat::Rgba8, 1));
    assert_eq!(d.levels[0].len(), 256 * 256 * 4);
    // X8R8G8B8: the file's second pixel is B, G, R = 0x1e; the unused byte does not make it
    // transparent.
    assert_eq!(d.levels[0][4..8], [0x1e, 0x1e, 0x1e, 255]);
    assert!(d.levels[0].chunks_exact(4).all(|p| p[3] == 255));
}

#[test]
fn an_m3d_naming_a_dds_normal_map_loads_it_when_present() {
    let dir = std::env::temp_dir().join(format!("throng-m3d-dds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    for name in ["skin_diff.png", "cloth_diff.png"] {
        image::RgbaImage::from_pixel(2, 2, image::Rgba([9, 8, 7, 255]))
            .save(dir.join(name))
            .expect("png");
    }
    // A flat normal (128, 128, 255) as BC1 blocks: 565 (16, 32, 31).
    let flat: u16 = (16 << 11) | (32 << 5) | 31;
    let data: Vec<u8> = (0..chain_bytes(4, 4, 3, 8) / 8)
        .flat_map(|_| bc1_constant(flat))
        .collect();
    std::fs::write(
        dir.join("shared_norm.dds"),
        dds(4, 4, 3, Pf::FourCc(b"DXT1"), None, &data),
    )
    .expect("dds");
    let file = dir.join("skinned.m3d");
    std::fs::write(&file, m3d_samples::SKINNED).expect("m3d");
    let model = throng::asset::load_file(&file).expect("loads");
    let mesh = model.mesh();
    let dds: Vec<usize> = (0..mesh.textures.len())
        .filter(|&i| mesh.textures[i].encoding == TextureEncoding::Dds)
        .collect();
    assert_eq!(dds.len(), 1, "{:?}", mesh.textures);
    let normals: Vec<Option<usize>> = mesh.materials.iter().map(|m| m.normal_texture).collect();
    assert!(normals.iter().all(|&n| n == Some(dds[0])), "{normals:?}");
    let d = texture::decode(&mesh.textures[dds[0]]).expect("decodes");
    assert_eq!(
        (d.format, d.levels.len()),
        (TexelFormat::Block(BlockFormat::Bc1), 3)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_header_byte_changed_is_a_clean_answer_never_a_panic() {
    let bc7 = dds(
        8,
        4,
        4,
        Pf::FourCc(b"DX10"),
        Some(98),
        &vec![0x40; chain_bytes(8, 4, 4, 16)],
    );
    let masked = dds(
        4,
        2,
        3,
        Pf::Masks(16, DDPF_RGB | DDPF_ALPHAPIXELS, [0xf00, 0xf0, 0xf, 0xf000]),
        None,
        &[0x5a; 22],
    );
    for base in [bc7, masked] {
        for at in 0..base.len().min(148) {
            for value in [0u8, 1, 3, 0x7f, 0x80, 0xff] {
                let mut bytes = base.clone();
                bytes[at] = value;
                if let Ok(t) = probe(bytes) {
                    let decoded = texture::decode(&t).expect("a probed DDS decodes");
                    let _ = decoded.to_rgba8(true);
                }
            }
        }
    }
}
