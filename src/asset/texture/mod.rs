//! Texture files: PNG, JPEG and DDS.
//!
//! Loading a model only *probes* its textures: the header is read (format, size within
//! [`MAX_TEXTURE_SIZE`], and for DDS every size against the data length) and the encoded
//! bytes are kept, shared, in an [`anim::Texture`](crate::anim::Texture). Pixels are decoded
//! by [`decode`] when a renderer uploads the texture, once per texture, with the decoder's
//! allocations bounded by the size the header promised. So `info` on a model with a
//! 13000x13000 PNG costs the PNG's bytes, not 700 MB, and a corrupt image fails its own
//! upload (the renderer falls back to the material colour) instead of the load.
//!
//! Textures named by a model file are read with [`load_beside`] (one file) or
//! [`FileTextures`] (a model's set of them, each file read once however it is named).

mod bcn;
mod dds;
mod image_file;
mod pixels;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::anim::{Texture, TextureEncoding};
use crate::asset::budget::{Budget, cost};
use crate::asset::{LoadOptions, source};

pub use bcn::BlockFormat;
use pixels::check_size;
pub use pixels::{Decoded, MAX_TEXTURE_SIZE, TexelFormat};

/// Checks the header of an encoded image (PNG, JPEG or DDS, recognized by its content) and
/// wraps it as a texture named `name`, without decoding its pixels. The error is the end of
/// a sentence about the image (`is not a PNG, JPEG or DDS file`).
pub fn probe(name: &str, bytes: Arc<[u8]>) -> Result<Texture, String> {
    probe_header(name, bytes).map_err(one_line)
}

fn probe_header(name: &str, bytes: Arc<[u8]>) -> Result<Texture, String> {
    let (encoding, width, height) = if dds::is_dds(&bytes) {
        let layout = dds::parse(&bytes)?;
        (TextureEncoding::Dds, layout.width, layout.height)
    } else {
        let (encoding, width, height) = image_file::probe(&bytes)?;
        check_size(width, height)?;
        (encoding, width, height)
    };
    Ok(Texture {
        name: name.to_string(),
        width,
        height,
        encoding,
        source: bytes,
    })
}

/// Decodes `texture`'s pixels (see [`Decoded`]). Allocations are bounded by the size its
/// header gave at load; an image whose data does not match its header is an error, never a
/// panic.
pub fn decode(texture: &Texture) -> Result<Decoded, String> {
    decode_pixels(texture).map_err(one_line)
}

/// The decoders' messages can span lines (the image crate's I/O errors do; the texture fuzz
/// target found one): every reason leaves here as one line, control characters escaped.
fn one_line(why: String) -> String {
    crate::text::printable(&why).into_owned()
}

fn decode_pixels(texture: &Texture) -> Result<Decoded, String> {
    match texture.encoding {
        TextureEncoding::Png | TextureEncoding::Jpeg => {
            image_file::decode(&texture.source, texture.width, texture.height)
        }
        TextureEncoding::Dds => dds::decode(&texture.source),
    }
}

/// Charges what decoding `texture` will hold ([`cost::texture`]) to the load's `budget`, or
/// says why it is left out: the end of a sentence that starts with the texture's name (`is
/// left out: its 13000x13000 pixels decoded with their mip chain need 901.3 MB, over the
/// load budget of ...`). Every loader charges each texture it keeps, once, when it is read:
/// the header has given its size, and no pixel has been decoded. A texture that does not fit
/// is left out rather than failing the load: the model animates, and draws in its materials'
/// colours, without it.
pub fn charge(budget: &mut Budget, texture: &Texture) -> Result<(), String> {
    let (width, height) = (texture.width, texture.height);
    budget
        .charge(cost::texture(width, height), || {
            format!("is left out: its {width}x{height} pixels decoded with their mip chain")
        })
        .map_err(|over| over.to_string())
}

/// Reads the texture file `name` that a model in `dir` refers to (under the path policy of
/// [`source::read_referenced`], with `options`' size cap) and probes it. The error is the
/// end of a sentence that starts with the file's name (`not found`, `cannot be used: ...`).
/// Every loader that names texture files beside the model goes through here.
pub fn load_beside(dir: &Path, name: &str, options: &LoadOptions) -> Result<Texture, String> {
    let bytes =
        source::read_referenced(dir, Path::new(name), options.max_file_size).map_err(|f| f.why)?;
    probe(name, bytes.into()).map_err(|e| format!("cannot be used ({e})"))
}

/// A model's texture files: each file is read, probed and charged to the load's budget
/// once, however many materials name it and under whichever names (`a.png`, `./a.png`, a link
/// to it).
pub struct FileTextures<'a> {
    dir: &'a Path,
    options: &'a LoadOptions,
    budget: &'a mut Budget,
    /// The texture index of each file read, or why it is not used.
    by_file: HashMap<PathBuf, Result<usize, String>>,
    /// What [`Self::named`] found for each name.
    by_name: HashMap<String, Option<usize>>,
    textures: Vec<Texture>,
}

impl<'a> FileTextures<'a> {
    /// No textures yet; files are looked for in `dir`, and charged to `budget` (their bytes
    /// raise it as input, their decoded pixels are charged against it).
    pub fn new(dir: &'a Path, options: &'a LoadOptions, budget: &'a mut Budget) -> Self {
        Self {
            dir,
            options,
            budget,
            by_file: HashMap::new(),
            by_name: HashMap::new(),
            textures: Vec::new(),
        }
    }

    /// The index in [`Self::into_textures`] of the texture file `name`, reading it the first
    /// time its file is seen. Errors as [`load_beside`]'s and [`charge`]'s.
    pub fn index_of(&mut self, name: &str) -> Result<usize, String> {
        let file = source::resolve_referenced(self.dir, Path::new(name)).map_err(|f| f.why)?;
        if let Some(known) = self.by_file.get(&file) {
            return known.clone();
        }
        let index = load_beside(self.dir, name, self.options).and_then(|texture| {
            self.budget.add_input(texture.source.len() as u64);
            charge(self.budget, &texture)?;
            self.textures.push(texture);
            Ok(self.textures.len() - 1)
        });
        self.by_file.insert(file, index.clone());
        index
    }

    /// The texture a material names as `name`, read with `read` (usually [`Self::index_of`]
    /// of the name, spelled as the format needs) the first time the name is seen; a texture
    /// that cannot be used calls `warn` with why (once per name) and is `None`, so the
    /// material keeps its colour. The loaders of texture files beside the model all resolve
    /// their materials' maps through here, each with its own warning.
    pub fn named(
        &mut self,
        name: &str,
        read: impl FnOnce(&mut Self) -> Result<usize, String>,
        warn: impl FnOnce(&str),
    ) -> Option<usize> {
        if let Some(&known) = self.by_name.get(name) {
            return known;
        }
        let index = read(self).map_err(|why| warn(&why)).ok();
        self.by_name.insert(name.to_string(), index);
        index
    }

    /// The textures read, in the order they were first named.
    pub fn into_textures(self) -> Vec<Texture> {
        self.textures
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let mut png = Vec::new();
        let img = image::RgbaImage::from_fn(w, h, |x, y| image::Rgba([x as u8, y as u8, 7, 255]));
        img.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .expect("encode");
        png
    }

    #[test]
    fn probes_without_decoding_then_decodes_png() {
        let t = probe("t.png", png(3, 2).into()).expect("probes");
        assert_eq!(
            (t.width, t.height, t.encoding),
            (3, 2, TextureEncoding::Png)
        );
        let d = decode(&t).expect("decodes");
        assert_eq!((d.width, d.height, d.format), (3, 2, TexelFormat::Rgba8));
        assert_eq!(d.levels.len(), 1);
        assert_eq!(&d.levels[0][4..8], &[1, 0, 7, 255]);
        let err = probe("junk", Arc::from(&b"not an image"[..])).expect_err("junk");
        assert!(err.contains("PNG, JPEG or DDS"), "{err}");
    }

    #[test]
    fn an_image_that_lies_about_its_size_fails_to_decode_without_panicking() {
        // A texture whose header promised 2x2 but whose data is a 3x2 PNG: the decoder is
        // held to the promised size.
        let mut t = probe("t.png", png(3, 2).into()).expect("probes");
        t.width = 2;
        let err = decode(&t).expect_err("lies");
        assert!(!err.is_empty());
        // A truncated PNG: the header probes, the decode fails.
        let bytes = png(64, 64);
        let cut: Arc<[u8]> = Arc::from(&bytes[..bytes.len() / 2]);
        if let Ok(t) = probe("cut.png", cut) {
            assert!(decode(&t).is_err());
        }
    }

    #[test]
    fn level_sizes_halve_down_to_one() {
        let d = Decoded::rgba8(8, 2, vec![0; 64]);
        assert_eq!(
            [0, 1, 2, 3].map(|l| d.level_size(l)),
            [(8, 2), (4, 1), (2, 1), (1, 1)]
        );
    }
}
