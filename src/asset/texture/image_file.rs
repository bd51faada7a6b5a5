//! PNG and JPEG through the `image` crate: the header at load, the pixels at upload, with
//! the decoder held to the size the header gave.

use std::io::Cursor;

use image::{ImageFormat, ImageReader, Limits};

use super::pixels::Decoded;
use crate::anim::TextureEncoding;

/// Room for the decoders' own bookkeeping on top of the pixels (tables, one row of filter
/// state).
const DECODER_SLACK: u64 = 4 << 20;

/// The encoding and size of a PNG or JPEG, from its header only.
pub(super) fn probe(bytes: &[u8]) -> Result<(TextureEncoding, u32, u32), String> {
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    let encoding = match reader.format() {
        Some(ImageFormat::Png) => TextureEncoding::Png,
        Some(ImageFormat::Jpeg) => TextureEncoding::Jpeg,
        _ => return Err("is not a PNG, JPEG or DDS file".into()),
    };
    let (w, h) = reader
        .into_dimensions()
        .map_err(|e| format!("has a bad header: {e}"))?;
    Ok((encoding, w, h))
}

/// Decodes a PNG or JPEG whose header said `width` x `height` into one RGBA8 level. The
/// decoder may allocate what that size needs at 16 bits per channel, and no more.
pub(super) fn decode(bytes: &[u8], width: u32, height: u32) -> Result<Decoded, String> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(width);
    limits.max_image_height = Some(height);
    limits.max_alloc = Some(
        u64::from(width)
            .saturating_mul(u64::from(height))
            .saturating_mul(8)
            .saturating_add(DECODER_SLACK),
    );
    reader.limits(limits);
    let image = reader.decode().map_err(|e| e.to_string())?;
    if (image.width(), image.height()) != (width, height) {
        return Err(format!(
            "decodes to {}x{} pixels, but its header said {width}x{height}",
            image.width(),
            image.height()
        ));
    }
    let rgba = image.into_rgba8();
    Ok(Decoded::rgba8(width, height, rgba.into_raw()))
}
