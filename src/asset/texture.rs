//! Decoding texture images (PNG, JPEG) into RGBA8, with a bound on their size.

use std::io::Cursor;
use std::path::Path;

use image::{ImageReader, Limits};

use crate::anim::Texture;

/// Largest width or height accepted, so a corrupt header cannot ask for gigabytes.
pub const MAX_TEXTURE_SIZE: u32 = 16384;

/// Decodes PNG or JPEG bytes (the format is recognized from the content) into RGBA8.
pub fn decode(name: &str, bytes: &[u8]) -> Result<Texture, String> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| format!("{name}: {e}"))?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_TEXTURE_SIZE);
    limits.max_image_height = Some(MAX_TEXTURE_SIZE);
    limits.max_alloc = Some(u64::from(MAX_TEXTURE_SIZE) * u64::from(MAX_TEXTURE_SIZE) * 4);
    reader.limits(limits);
    let image = reader.decode().map_err(|e| format!("{name}: {e}"))?;
    let rgba = image.into_rgba8();
    Ok(Texture {
        name: name.to_string(),
        width: rgba.width(),
        height: rgba.height(),
        rgba8: rgba.into_raw(),
    })
}

/// Reads and decodes an image file.
pub fn load_file(path: &Path) -> Result<Texture, String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    decode(&name, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_png_and_rejects_garbage() {
        let mut png = Vec::new();
        let img = image::RgbaImage::from_fn(3, 2, |x, y| image::Rgba([x as u8, y as u8, 7, 255]));
        img.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .expect("encode");
        let t = decode("t.png", &png).expect("decodes");
        assert_eq!((t.width, t.height, t.rgba8.len()), (3, 2, 24));
        assert_eq!(&t.rgba8[4..8], &[1, 0, 7, 255]);
        assert!(decode("junk", b"not an image").is_err());
    }
}
