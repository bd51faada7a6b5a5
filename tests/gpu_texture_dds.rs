//! A character whose base colour is a BC1 DDS renders like the same character with an
//! uncompressed texture of the colour the BC1 specification gives for that block, both when
//! the blocks go to the device as they are and when they are decoded on the CPU
//! (`BlockUpload::DecodeOnCpu`, what `THRONG_DECODE_BC_ON_CPU=1` selects).

mod gpu_common;

use std::sync::Arc;

use throng::anim::{SkinnedModel, Texture};
use throng::asset::{self, texture};
use throng::gpu::{BlockUpload, TexelSpace, ViewMode, block_format, device_samples_format};

use gpu_common::*;

const SIZE: u32 = 128;

/// A DDS header (legacy, with a mip count) for `width` x `height`, then `data`.
fn dds(width: u32, height: u32, mips: u32, pf: [u32; 8], data: &[u8]) -> Vec<u8> {
    let mut words = vec![
        u32::from_le_bytes(*b"DDS "),
        124,
        0x1007 | 0x20000,
        height,
        width,
        0,
        0,
        mips,
    ];
    words.extend([0; 11]);
    words.extend(pf);
    words.extend([0x1000 | 0x400008, 0, 0, 0, 0]);
    let mut out: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    out.extend_from_slice(data);
    out
}

/// 8x8 BC1 with four mips, every block the one colour `c` (both endpoints `c`, indices 0).
fn bc1_texture(c: u16) -> Texture {
    let block = [c.to_le_bytes(), c.to_le_bytes(), [0, 0], [0, 0]].concat();
    let blocks = 4 + 1 + 1 + 1;
    let data: Vec<u8> = (0..blocks).flat_map(|_| block.clone()).collect();
    let pf = [32, 0x4, u32::from_le_bytes(*b"DXT1"), 0, 0, 0, 0, 0];
    texture::probe("bc1.dds", dds(8, 8, 4, pf, &data).into()).expect("bc1")
}

/// 8x8 uncompressed A8R8G8B8 of one opaque colour, one level.
fn rgba_texture(rgb: [u8; 3]) -> Texture {
    let data: Vec<u8> = (0..64)
        .flat_map(|_| [rgb[2], rgb[1], rgb[0], 255])
        .collect();
    let pf = [32, 0x41, 0, 32, 0xff_0000, 0xff00, 0xff, 0xff00_0000];
    texture::probe("rgba.dds", dds(8, 8, 1, pf, &data).into()).expect("rgba")
}

/// RGB565 expanded by bit replication (the BC1 specification's endpoint expansion).
fn expand565(c: u16) -> [u8; 3] {
    let (r, g, b) = (c >> 11, (c >> 5) & 63, c & 31);
    [
        ((r << 3) | (r >> 2)) as u8,
        ((g << 2) | (g >> 4)) as u8,
        ((b << 3) | (b >> 2)) as u8,
    ]
}

/// The built-in character with every material white and textured with `texture`.
fn textured(texture: Texture) -> Arc<SkinnedModel> {
    let base = asset::load_model(None).expect("builtin");
    let mut mesh = base.mesh().clone();
    for m in &mut mesh.materials {
        m.base_color = [1.0; 4];
        m.base_color_texture = Some(0);
        m.normal_texture = None;
    }
    mesh.textures = vec![texture];
    Arc::new(
        SkinnedModel::new(
            "textured",
            "test",
            base.skeleton().clone(),
            base.clips().to_vec(),
            mesh,
        )
        .expect("model"),
    )
}

/// One frame of `model` alone, uploaded with `blocks`; `None` without a device.
fn frame(model: &Arc<SkinnedModel>, blocks: BlockUpload) -> Option<throng::gpu::Pixels> {
    let mut r = renderer(SIZE, SIZE)?;
    r.renderer().set_block_upload(blocks);
    let (mut crowd, bounds) = crowd_of(&mut r, std::slice::from_ref(model), 1, 5);
    hold_pose(&mut crowd, 0, 0.0);
    let camera = framing(&r, &bounds);
    Some(render_view(
        &mut r,
        &mut crowd,
        &camera,
        &bounds,
        ViewMode::Final,
    ))
}

#[test]
fn a_bc1_texture_renders_as_its_specified_colour_on_both_upload_paths() {
    // Endpoints whose bit-replicated and exactly rounded 8-bit expansions agree, so the
    // reference does not depend on which one a decoder uses.
    let colour: u16 = (22 << 11) | (45 << 5) | 9;
    let reference = textured(rgba_texture(expand565(colour)));
    let Some(want) = frame(&reference, BlockUpload::WhenSupported) else {
        return;
    };
    let bc1 = textured(bc1_texture(colour));
    {
        // lavapipe samples BC1: the first path really uploads blocks there.
        let Some(r) = renderer(8, 8) else { return };
        let format = block_format(texture::BlockFormat::Bc1, TexelSpace::Srgb);
        if !device_samples_format(r.context(), format) {
            eprintln!("this device does not sample BC1: both paths decode on the CPU");
        }
    }
    for blocks in [BlockUpload::WhenSupported, BlockUpload::DecodeOnCpu] {
        let got = frame(&bc1, blocks).expect("device");
        let off = differing(&want, &got, 2);
        assert_eq!(
            off, 0,
            "{blocks:?}: {off} pixels differ from the reference colour"
        );
    }
    // The comparison can fail: another colour is visibly different.
    let other = textured(rgba_texture([200, 30, 30]));
    let elsewhere = frame(&other, BlockUpload::WhenSupported).expect("device");
    assert!(differing(&want, &elsewhere, 2) > 100);
    assert_no_validation_messages();
}
