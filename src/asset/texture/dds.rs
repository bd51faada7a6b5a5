//! DirectDraw Surface files: the header through `ddsfile`, checked strictly here (one 2D
//! texture, a known format, a mip count the size allows, and exactly the data those levels
//! need), and the levels cut out of the data at upload.
//!
//! Formats: BC1-BC7 (FourCC `DXT1`-`DXT5`, `ATI1`/`BC4U`, `ATI2`/`BC5U`, or the DX10 header),
//! and uncompressed 8-, 16-, 24- and 32-bit pixels described by channel masks (A8R8G8B8,
//! X8R8G8B8, A8B8G8R8, R8G8B8, R5G6B5, A4R4G4B4, L8, ...) or by a DX10 format (R8G8B8A8,
//! B8G8R8A8, B8G8R8X8). Uncompressed levels are converted to RGBA8. Cube maps, volumes,
//! arrays and float formats are refused.

use ddsfile::{D3D10ResourceDimension, DxgiFormat, FourCC, Header, Header10, PixelFormatFlags};

use super::bcn::BlockFormat;
use super::pixels::{Decoded, TexelFormat, check_size};

const MAGIC: &[u8; 4] = b"DDS ";
/// Magic and header.
const HEADER_BYTES: usize = 4 + 124;
/// Where the pixel format's red (or luminance) mask lies in the file.
const RED_MASK_AT: usize = 4 + 72 + 16;
/// The DX10 extension header that follows when the FourCC is `DX10`.
const HEADER10_BYTES: usize = 20;

/// Whether `bytes` start like a DDS file.
pub(super) fn is_dds(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// How the texels of an uncompressed DDS are laid out: bytes per pixel and the bits of each
/// channel (red, green, blue, alpha; a zero mask is absent). Luminance formats use the red
/// mask for all three colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Masks {
    bytes_per_pixel: usize,
    rgba: [u32; 4],
    luminance: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Texels {
    Block(BlockFormat),
    Masked(Masks),
}

impl Texels {
    fn level_bytes(self, width: u32, height: u32) -> u64 {
        match self {
            Self::Block(b) => b.level_bytes(width, height),
            Self::Masked(m) => u64::from(width) * u64::from(height) * m.bytes_per_pixel as u64,
        }
    }

    fn describe(self) -> String {
        match self {
            Self::Block(b) => b.name().to_string(),
            Self::Masked(m) => format!("{}-bit uncompressed", m.bytes_per_pixel * 8),
        }
    }
}

/// What a DDS header says, checked against the file's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    pub width: u32,
    pub height: u32,
    mip_levels: u32,
    texels: Texels,
    data_start: usize,
}

/// Reads and checks the header of the DDS file `bytes` (the data itself is not read).
pub(super) fn parse(bytes: &[u8]) -> Result<Layout, String> {
    let fail = |why: String| Err(format!("is not a usable DDS file: {why}"));
    if !is_dds(bytes) {
        return fail("no 'DDS ' magic".into());
    }
    let Some(header_bytes) = bytes.get(4..HEADER_BYTES) else {
        return fail(format!(
            "{} bytes, shorter than the {HEADER_BYTES}-byte header",
            bytes.len()
        ));
    };
    let header = match Header::read(header_bytes) {
        Ok(h) => h,
        Err(e) => return fail(format!("header: {e}")),
    };
    let caps2 = header.caps2;
    if caps2.contains(ddsfile::Caps2::CUBEMAP) {
        return fail("a cube map (only 2D textures are read)".into());
    }
    if caps2.contains(ddsfile::Caps2::VOLUME) || header.depth.is_some_and(|d| d > 1) {
        return fail("a volume texture (only 2D textures are read)".into());
    }
    let (texels, data_start) = match header.spf.fourcc {
        Some(FourCC(FourCC::DX10)) => {
            let end = HEADER_BYTES + HEADER10_BYTES;
            let Some(ext) = bytes.get(HEADER_BYTES..end) else {
                return fail("the DX10 header is cut short".into());
            };
            let ext = match Header10::read(ext) {
                Ok(h) => h,
                Err(e) => return fail(format!("DX10 header: {e}")),
            };
            (dx10_texels(&ext)?, end)
        }
        Some(FourCC(code)) => (Texels::Block(fourcc_block(code)?), HEADER_BYTES),
        None => {
            let red = bytes
                .get(RED_MASK_AT..RED_MASK_AT + 4)
                .and_then(|b| b.try_into().ok())
                .map_or(0, u32::from_le_bytes);
            (Texels::Masked(masks(&header, red)?), HEADER_BYTES)
        }
    };
    let (width, height) = (header.width, header.height);
    check_size(width, height)?;
    // A count of 0 (or no count) is one level, as Direct3D reads it.
    let mip_levels = header.mip_map_count.unwrap_or(1).max(1);
    let full_chain = 32 - width.max(height).leading_zeros();
    if mip_levels > full_chain {
        return fail(format!(
            "{mip_levels} mip levels, but a {width}x{height} texture has at most {full_chain}"
        ));
    }
    let layout = Layout {
        width,
        height,
        mip_levels,
        texels,
        data_start,
    };
    let needed: u64 = (0..mip_levels).map(|l| layout.level_bytes(l)).sum();
    let have = (bytes.len() - data_start) as u64;
    if have != needed {
        return fail(format!(
            "{have} bytes of texel data, but {width}x{height} {} with {mip_levels} mip \
             level{} needs {needed}",
            texels.describe(),
            if mip_levels == 1 { "" } else { "s" },
        ));
    }
    Ok(layout)
}

impl Layout {
    fn level_size(&self, level: u32) -> (u32, u32) {
        ((self.width >> level).max(1), (self.height >> level).max(1))
    }

    fn level_bytes(&self, level: u32) -> u64 {
        let (w, h) = self.level_size(level);
        self.texels.level_bytes(w, h)
    }
}

/// Cuts the levels out of a DDS file (checked again: the bytes are the file's), converting
/// uncompressed texels to RGBA8; blocks stay as they are.
pub(super) fn decode(bytes: &[u8]) -> Result<Decoded, String> {
    let layout = parse(bytes)?;
    let mut levels = Vec::with_capacity(layout.mip_levels as usize);
    let mut at = layout.data_start;
    for level in 0..layout.mip_levels {
        // parse() checked that the levels add up to exactly the data.
        let len = layout.level_bytes(level) as usize;
        let data = bytes
            .get(at..at + len)
            .ok_or_else(|| format!("mip level {level} is cut short"))?;
        at += len;
        let (w, h) = layout.level_size(level);
        levels.push(match layout.texels {
            Texels::Block(_) => data.to_vec(),
            Texels::Masked(m) => unmask(m, w, h, data),
        });
    }
    Ok(Decoded {
        width: layout.width,
        height: layout.height,
        format: match layout.texels {
            Texels::Block(b) => TexelFormat::Block(b),
            Texels::Masked(_) => TexelFormat::Rgba8,
        },
        levels,
    })
}

fn fourcc_block(code: u32) -> Result<BlockFormat, String> {
    Ok(match code {
        FourCC::DXT1 => BlockFormat::Bc1,
        // DXT2 and DXT4 are DXT3 and DXT5 with premultiplied alpha: same blocks.
        FourCC::DXT2 | FourCC::DXT3 => BlockFormat::Bc2,
        FourCC::DXT4 | FourCC::DXT5 => BlockFormat::Bc3,
        FourCC::ATI1 | FourCC::BC4_UNORM => BlockFormat::Bc4,
        FourCC::ATI2 => BlockFormat::Bc5,
        _ => {
            let text: String = code
                .to_le_bytes()
                .iter()
                .map(|&b| {
                    if b.is_ascii_graphic() {
                        char::from(b)
                    } else {
                        '?'
                    }
                })
                .collect();
            return Err(format!(
                "is not a usable DDS file: format '{text}' (FourCC {code}) is not supported \
                 (BC1-BC7 and 8-bit-per-channel uncompressed are)"
            ));
        }
    })
}

fn dx10_texels(ext: &Header10) -> Result<Texels, String> {
    let fail = |why: String| Err(format!("is not a usable DDS file: {why}"));
    if ext.resource_dimension != D3D10ResourceDimension::Texture2D {
        return fail(format!(
            "a {:?} resource (only 2D textures are read)",
            ext.resource_dimension
        ));
    }
    if ext.misc_flag.contains(ddsfile::MiscFlag::TEXTURECUBE) {
        return fail("a cube map (only 2D textures are read)".into());
    }
    if ext.array_size != 1 {
        return fail(format!(
            "an array of {} textures (only single textures are read)",
            ext.array_size
        ));
    }
    let rgba = |r, g, b, a| {
        Texels::Masked(Masks {
            bytes_per_pixel: 4,
            rgba: [r, g, b, a],
            luminance: false,
        })
    };
    use DxgiFormat as F;
    Ok(match ext.dxgi_format {
        F::BC1_Typeless | F::BC1_UNorm | F::BC1_UNorm_sRGB => Texels::Block(BlockFormat::Bc1),
        F::BC2_Typeless | F::BC2_UNorm | F::BC2_UNorm_sRGB => Texels::Block(BlockFormat::Bc2),
        F::BC3_Typeless | F::BC3_UNorm | F::BC3_UNorm_sRGB => Texels::Block(BlockFormat::Bc3),
        F::BC4_Typeless | F::BC4_UNorm => Texels::Block(BlockFormat::Bc4),
        F::BC5_Typeless | F::BC5_UNorm => Texels::Block(BlockFormat::Bc5),
        F::BC6H_Typeless | F::BC6H_UF16 => Texels::Block(BlockFormat::Bc6hUnsigned),
        F::BC6H_SF16 => Texels::Block(BlockFormat::Bc6hSigned),
        F::BC7_Typeless | F::BC7_UNorm | F::BC7_UNorm_sRGB => Texels::Block(BlockFormat::Bc7),
        F::R8G8B8A8_Typeless | F::R8G8B8A8_UNorm | F::R8G8B8A8_UNorm_sRGB => {
            rgba(0xff, 0xff00, 0xff_0000, 0xff00_0000)
        }
        F::B8G8R8A8_Typeless | F::B8G8R8A8_UNorm | F::B8G8R8A8_UNorm_sRGB => {
            rgba(0xff_0000, 0xff00, 0xff, 0xff00_0000)
        }
        F::B8G8R8X8_Typeless | F::B8G8R8X8_UNorm | F::B8G8R8X8_UNorm_sRGB => {
            rgba(0xff_0000, 0xff00, 0xff, 0)
        }
        other => {
            return fail(format!(
                "DXGI format {other:?} is not supported (BC1-BC7, R8G8B8A8, B8G8R8A8 and \
                 B8G8R8X8 are)"
            ));
        }
    })
}

/// The channel masks of a legacy uncompressed header, checked: a whole number of bytes per
/// pixel, masks inside the pixel, non-empty and not overlapping.
fn masks(header: &Header, raw_red_mask: u32) -> Result<Masks, String> {
    let fail = |why: String| Err(format!("is not a usable DDS file: {why}"));
    let pf = &header.spf;
    let luminance = pf.flags.contains(PixelFormatFlags::LUMINANCE);
    if !pf.flags.contains(PixelFormatFlags::RGB) && !luminance {
        return fail(format!(
            "pixel format flags {:#x} name neither a FourCC, RGB nor luminance",
            pf.flags.bits()
        ));
    }
    let bits = pf.rgb_bit_count.unwrap_or(0);
    if !matches!(bits, 8 | 16 | 24 | 32) {
        return fail(format!("{bits} bits per pixel (8, 16, 24 or 32 are read)"));
    }
    // ddsfile keeps the colour masks for RGB formats only; luminance keeps its mask in the
    // red field, read here from the header's bytes.
    let red = if luminance {
        raw_red_mask
    } else {
        pf.r_bit_mask.unwrap_or(0)
    };
    let rgba = [
        red,
        if luminance {
            0
        } else {
            pf.g_bit_mask.unwrap_or(0)
        },
        if luminance {
            0
        } else {
            pf.b_bit_mask.unwrap_or(0)
        },
        pf.a_bit_mask.unwrap_or(0),
    ];
    let limit = if bits == 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    };
    let mut seen = 0u32;
    for m in rgba {
        if m & !limit != 0 || m & seen != 0 {
            let shown: Vec<String> = rgba.iter().map(|m| format!("{m:#x}")).collect();
            return fail(format!(
                "channel masks {} overlap or do not fit in {bits} bits",
                shown.join(", ")
            ));
        }
        seen |= m;
    }
    if rgba[0] | rgba[1] | rgba[2] == 0 {
        return fail("no colour channel".into());
    }
    Ok(Masks {
        bytes_per_pixel: (bits / 8) as usize,
        rgba,
        luminance,
    })
}

/// Converts one level of masked pixels to RGBA8. Each channel is scaled from its mask's
/// width to 8 bits; an absent alpha is opaque.
fn unmask(m: Masks, width: u32, height: u32, data: &[u8]) -> Vec<u8> {
    let pixels = width as usize * height as usize;
    let mut out = Vec::with_capacity(pixels * 4);
    let channel = |px: u32, mask: u32| -> u8 {
        if mask == 0 {
            return 255;
        }
        let shift = mask.trailing_zeros();
        let max = u64::from(mask >> shift);
        let v = u64::from((px & mask) >> shift);
        ((v * 255 + max / 2) / max) as u8
    };
    for texel in data.chunks_exact(m.bytes_per_pixel).take(pixels) {
        let mut word = [0u8; 4];
        word[..texel.len()].copy_from_slice(texel);
        let px = u32::from_le_bytes(word);
        let r = channel(px, m.rgba[0]);
        let (g, b) = if m.luminance {
            (r, r)
        } else {
            (channel(px, m.rgba[1]), channel(px, m.rgba[2]))
        };
        out.extend_from_slice(&[r, g, b, channel(px, m.rgba[3])]);
    }
    out.resize(pixels * 4, 0);
    out
}

#[cfg(test)]
mod tests {
    use super::super::MAX_TEXTURE_SIZE;

    #[test]
    fn max_size_keeps_the_full_chain_within_a_u32() {
        assert_eq!(32 - MAX_TEXTURE_SIZE.leading_zeros(), 15);
    }
}
