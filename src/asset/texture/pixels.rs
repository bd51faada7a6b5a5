//! A texture's pixels as the decoders give them: the levels, their format and the largest
//! size accepted.

use super::bcn::{self, BlockFormat};

/// Largest width or height accepted, so a header cannot ask for more than 1 GiB of pixels.
pub const MAX_TEXTURE_SIZE: u32 = 16384;

/// What the levels of a [`Decoded`] texture hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexelFormat {
    /// 8-bit RGBA, rows top first, as stored (sRGB-encoded colour or linear data: the use
    /// decides).
    Rgba8,
    /// 4x4 blocks of a block-compressed format, rows of blocks top first.
    Block(BlockFormat),
}

/// A texture's pixels, ready for upload: level 0 first, each level half the one before
/// (rounded down, at least 1). PNG and JPEG give one RGBA8 level (the renderer builds the
/// rest); DDS gives the levels its file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    /// Width of level 0.
    pub width: u32,
    /// Height of level 0.
    pub height: u32,
    /// What the levels hold.
    pub format: TexelFormat,
    /// The levels' bytes.
    pub levels: Vec<Vec<u8>>,
}

impl Decoded {
    /// One RGBA8 level of `width` x `height` (`rgba8` must hold `width * height * 4` bytes).
    pub fn rgba8(width: u32, height: u32, rgba8: Vec<u8>) -> Self {
        Self {
            width,
            height,
            format: TexelFormat::Rgba8,
            levels: vec![rgba8],
        }
    }

    /// The size of level `level`.
    pub fn level_size(&self, level: usize) -> (u32, u32) {
        let shift = level.min(31) as u32;
        ((self.width >> shift).max(1), (self.height >> shift).max(1))
    }

    /// The same texture in RGBA8 (block formats decoded on the CPU, every level). `srgb`:
    /// whether colour is to be stored sRGB-encoded, which only matters for BC6H, whose
    /// texels are linear floats.
    pub fn to_rgba8(&self, srgb: bool) -> Self {
        let TexelFormat::Block(block) = self.format else {
            return self.clone();
        };
        let levels = self
            .levels
            .iter()
            .enumerate()
            .map(|(i, data)| {
                let (w, h) = self.level_size(i);
                bcn::decode_level(block, w, h, data, srgb)
            })
            .collect();
        Self {
            width: self.width,
            height: self.height,
            format: TexelFormat::Rgba8,
            levels,
        }
    }
}

/// Refuses a size with no pixels or over [`MAX_TEXTURE_SIZE`]; the error ends a sentence about
/// the image.
pub(super) fn check_size(width: u32, height: u32) -> Result<(), String> {
    if width == 0 || height == 0 {
        return Err(format!("has no pixels ({width}x{height})"));
    }
    if width > MAX_TEXTURE_SIZE || height > MAX_TEXTURE_SIZE {
        return Err(format!(
            "is {width}x{height} pixels, larger than the {MAX_TEXTURE_SIZE}x{MAX_TEXTURE_SIZE} \
             limit on textures"
        ));
    }
    Ok(())
}
