//! Block-compressed formats (BC1-BC7): their block sizes, and decoding them to RGBA8 on the
//! CPU (through `bcdec_rs`) for devices that cannot sample them, and for the formats whose
//! channels the renderer does not read as stored (BC4, BC5, BC6H).

/// A block-compressed texel format: every 4x4 texels are one block of
/// [`BlockFormat::block_bytes`] bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockFormat {
    /// BC1 (DXT1): RGB with 1-bit alpha, 8 bytes.
    Bc1,
    /// BC2 (DXT3): RGB and explicit 4-bit alpha, 16 bytes.
    Bc2,
    /// BC3 (DXT5): RGB and interpolated alpha, 16 bytes.
    Bc3,
    /// BC4 (ATI1): one channel, 8 bytes; read as grey.
    Bc4,
    /// BC5 (ATI2): two channels, 16 bytes; read as a normal map's x and y (z rebuilt).
    Bc5,
    /// BC6H, unsigned half floats (HDR colour), 16 bytes.
    Bc6hUnsigned,
    /// BC6H, signed half floats, 16 bytes.
    Bc6hSigned,
    /// BC7: RGBA, 16 bytes.
    Bc7,
}

impl BlockFormat {
    /// Bytes per 4x4 block.
    pub fn block_bytes(self) -> usize {
        match self {
            Self::Bc1 | Self::Bc4 => 8,
            _ => 16,
        }
    }

    /// Whether the renderer can sample the blocks as they are and read the colour it
    /// expects (RGBA with alpha). BC4 and BC5 would read as red and red-green, and BC6H as
    /// unclamped floats: those are decoded on the CPU.
    pub fn sampled_as_stored(self) -> bool {
        matches!(self, Self::Bc1 | Self::Bc2 | Self::Bc3 | Self::Bc7)
    }

    /// The usual name (`BC1`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Bc1 => "BC1",
            Self::Bc2 => "BC2",
            Self::Bc3 => "BC3",
            Self::Bc4 => "BC4",
            Self::Bc5 => "BC5",
            Self::Bc6hUnsigned => "BC6H (unsigned)",
            Self::Bc6hSigned => "BC6H (signed)",
            Self::Bc7 => "BC7",
        }
    }

    /// Bytes of a `width` x `height` level (whole blocks, partial ones at the edges
    /// included).
    pub fn level_bytes(self, width: u32, height: u32) -> u64 {
        u64::from(width.div_ceil(4)) * u64::from(height.div_ceil(4)) * self.block_bytes() as u64
    }
}

/// Decodes one `width` x `height` level of `format` blocks into RGBA8. `data` holds
/// [`BlockFormat::level_bytes`] bytes (checked when the file was parsed; blocks missing from
/// a shorter slice decode as transparent black). `srgb`: BC6H's linear floats are stored
/// sRGB-encoded.
pub(super) fn decode_level(
    format: BlockFormat,
    width: u32,
    height: u32,
    data: &[u8],
    srgb: bool,
) -> Vec<u8> {
    let (w, h) = (width as usize, height as usize);
    let mut out = vec![0u8; w * h * 4];
    let blocks_x = w.div_ceil(4);
    for (b, block) in data
        .chunks_exact(format.block_bytes())
        .take(blocks_x * h.div_ceil(4))
        .enumerate()
    {
        let texels = decode_block(format, block, srgb);
        let (bx, by) = (b % blocks_x * 4, b / blocks_x * 4);
        for y in 0..4.min(h - by) {
            let cols = 4.min(w - bx);
            let dst = ((by + y) * w + bx) * 4;
            out[dst..dst + cols * 4].copy_from_slice(&texels[y * 16..y * 16 + cols * 4]);
        }
    }
    out
}

/// One block as 4x4 RGBA8 texels, rows of 16 bytes.
fn decode_block(format: BlockFormat, block: &[u8], srgb: bool) -> [u8; 64] {
    let mut rgba = [0u8; 64];
    match format {
        BlockFormat::Bc1 => bcdec_rs::bc1(block, &mut rgba, 16),
        BlockFormat::Bc2 => bcdec_rs::bc2(block, &mut rgba, 16),
        BlockFormat::Bc3 => bcdec_rs::bc3(block, &mut rgba, 16),
        BlockFormat::Bc7 => bcdec_rs::bc7(block, &mut rgba, 16),
        BlockFormat::Bc4 => {
            let mut grey = [0u8; 16];
            bcdec_rs::bc4(block, &mut grey, 4, false);
            for (px, g) in rgba.chunks_exact_mut(4).zip(grey) {
                px.copy_from_slice(&[g, g, g, 255]);
            }
        }
        BlockFormat::Bc5 => {
            let mut rg = [0u8; 32];
            bcdec_rs::bc5(block, &mut rg, 8, false);
            for (px, xy) in rgba.chunks_exact_mut(4).zip(rg.chunks_exact(2)) {
                // A unit normal's z from its x and y (tangent space: z >= 0).
                let unit = |v: u8| f32::from(v) / 255.0 * 2.0 - 1.0;
                let (x, y) = (unit(xy[0]), unit(xy[1]));
                let z = (1.0 - x * x - y * y).max(0.0).sqrt();
                px.copy_from_slice(&[xy[0], xy[1], to_unorm8(z * 0.5 + 0.5), 255]);
            }
        }
        BlockFormat::Bc6hUnsigned | BlockFormat::Bc6hSigned => {
            let mut rgb = [0f32; 48];
            let signed = format == BlockFormat::Bc6hSigned;
            bcdec_rs::bc6h_float(block, &mut rgb, 12, signed);
            for (px, c) in rgba.chunks_exact_mut(4).zip(rgb.chunks_exact(3)) {
                let enc = |v: f32| {
                    let v = if v.is_finite() {
                        v.clamp(0.0, 1.0)
                    } else {
                        0.0
                    };
                    to_unorm8(if srgb { linear_to_srgb(v) } else { v })
                };
                px.copy_from_slice(&[enc(c[0]), enc(c[1]), enc(c[2]), 255]);
            }
        }
    }
    rgba
}

fn to_unorm8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

fn linear_to_srgb(x: f32) -> f32 {
    if x <= 0.003_130_8 {
        x * 12.92
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An RGB565 colour.
    fn rgb565(r: u16, g: u16, b: u16) -> u16 {
        (r << 11) | (g << 5) | b
    }

    /// Expands 565 to 8 bits per channel by bit replication (the BC1 specification's
    /// reference expansion).
    fn expand(c: u16) -> [i32; 3] {
        let (r, g, b) = (
            i32::from(c >> 11),
            i32::from((c >> 5) & 63),
            i32::from(c & 31),
        );
        [
            (r << 3) | (r >> 2),
            (g << 2) | (g >> 4),
            (b << 3) | (b >> 2),
        ]
    }

    #[test]
    fn bc1_four_colour_block_matches_the_specification() {
        // c0 > c1: four-colour mode, colours 2 and 3 at 1/3 and 2/3 between c0 and c1.
        let (c0, c1) = (rgb565(31, 40, 3), rgb565(2, 10, 28));
        assert!(c0 > c1);
        // Row y uses index y for every texel, so the four rows show the four palette colours.
        let indices: u32 = (0..16).map(|i| ((i / 4) as u32) << (2 * i)).sum();
        let mut block = Vec::new();
        block.extend_from_slice(&c0.to_le_bytes());
        block.extend_from_slice(&c1.to_le_bytes());
        block.extend_from_slice(&indices.to_le_bytes());
        let got = decode_level(BlockFormat::Bc1, 4, 4, &block, false);
        let (e0, e1) = (expand(c0), expand(c1));
        let palette = [
            e0,
            e1,
            [0, 1, 2]
                .map(|k| (2 * e0[k] + e1[k]) as f32 / 3.0)
                .map(|v| v as i32),
            [0, 1, 2]
                .map(|k| (e0[k] + 2 * e1[k]) as f32 / 3.0)
                .map(|v| v as i32),
        ];
        for y in 0..4 {
            for x in 0..4 {
                let px = &got[(y * 4 + x) * 4..][..4];
                for k in 0..3 {
                    // Decoders may round the thirds differently: within one step.
                    let want = palette[y][k];
                    assert!(
                        (i32::from(px[k]) - want).abs() <= 1,
                        "texel ({x},{y}) channel {k}: {} vs {want}",
                        px[k]
                    );
                }
                assert_eq!(px[3], 255);
            }
        }
    }

    #[test]
    fn bc1_three_colour_block_has_transparent_black() {
        // c0 <= c1: three colours plus transparent black at index 3.
        let (c0, c1) = (rgb565(0, 0, 31), rgb565(31, 0, 0));
        let mut block = Vec::new();
        block.extend_from_slice(&c0.to_le_bytes());
        block.extend_from_slice(&c1.to_le_bytes());
        block.extend_from_slice(&u32::MAX.to_le_bytes());
        let got = decode_level(BlockFormat::Bc1, 4, 4, &block, false);
        assert!(got.chunks_exact(4).all(|p| p == [0, 0, 0, 0]));
    }

    #[test]
    fn partial_edge_blocks_are_cropped() {
        // A 5x3 level is 2x1 blocks; texels beyond the edge are dropped.
        let white = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0];
        let data = [white, white].concat();
        let got = decode_level(BlockFormat::Bc1, 5, 3, &data, false);
        assert_eq!(got.len(), 5 * 3 * 4);
        assert!(got.iter().all(|&v| v == 255));
        assert_eq!(BlockFormat::Bc1.level_bytes(5, 3), 16);
        assert_eq!(BlockFormat::Bc7.level_bytes(1, 1), 16);
    }
}
