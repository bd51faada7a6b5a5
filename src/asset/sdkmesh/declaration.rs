//! The Direct3D 9 vertex declaration each vertex buffer carries: up to 32 eight-byte
//! `D3DVERTEXELEMENT9` records (`Stream u16, Offset u16, Type u8, Method u8, Usage u8,
//! UsageIndex u8`), ended by one whose stream is 0xFF (what follows the end is garbage and is
//! not read). The declaration, not an assumed layout, says where each attribute is and how it
//! is stored; attributes throng does not use (binormals, colors, second texture coordinates)
//! are skipped.

use std::fmt;

use super::bytes::{u8_at, u16_at};

/// Elements a declaration holds on disk (`MAX_VERTEX_ELEMENTS`).
pub(super) const MAX_ELEMENTS: usize = 32;
/// Bytes of one element record.
pub(super) const ELEMENT_SIZE: usize = 8;
/// The stream number of the end marker (`D3DDECL_END`).
const END_STREAM: u16 = 0xFF;

/// How an element's bytes are stored (`D3DDECLTYPE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ElementType {
    Float(u8),
    Color,
    UByte4,
    Short2,
    Short4,
    UByte4N,
    Short2N,
    Short4N,
    UShort2N,
    UShort4N,
    UDec3,
    Dec3N,
    Half2,
    Half4,
}

impl ElementType {
    fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            0..=3 => Self::Float(code + 1),
            4 => Self::Color,
            5 => Self::UByte4,
            6 => Self::Short2,
            7 => Self::Short4,
            8 => Self::UByte4N,
            9 => Self::Short2N,
            10 => Self::Short4N,
            11 => Self::UShort2N,
            12 => Self::UShort4N,
            13 => Self::UDec3,
            14 => Self::Dec3N,
            15 => Self::Half2,
            16 => Self::Half4,
            _ => return None,
        })
    }

    /// Bytes the element occupies in a vertex.
    pub(super) fn size(self) -> usize {
        match self {
            Self::Float(n) => 4 * usize::from(n),
            Self::Short4 | Self::Short4N | Self::UShort4N | Self::Half4 => 8,
            _ => 4,
        }
    }

    /// Components the element has (the rest read as 0, 0, 0, 1 as Direct3D fills them).
    pub(super) fn components(self) -> usize {
        match self {
            Self::Float(n) => usize::from(n),
            Self::Short2 | Self::Short2N | Self::UShort2N | Self::Half2 => 2,
            Self::UDec3 | Self::Dec3N => 3,
            _ => 4,
        }
    }

    /// Whether the components are integers that can index bones.
    pub(super) fn is_integer(self) -> bool {
        matches!(self, Self::UByte4 | Self::Short2 | Self::Short4)
    }

    /// Decodes one element from its bytes (`bytes` holds at least [`size`](Self::size)).
    pub(super) fn decode(self, bytes: &[u8]) -> [f32; 4] {
        let mut v = [0.0, 0.0, 0.0, 1.0];
        let n = self.components();
        let byte = |i: usize| f32::from(u8_at(bytes, i));
        let short = |i: usize| f32::from(u16_at(bytes, 2 * i) as i16);
        let ushort = |i: usize| f32::from(u16_at(bytes, 2 * i));
        let packed = || u32::from_le_bytes([0, 1, 2, 3].map(|i| u8_at(bytes, i)));
        for (i, out) in v.iter_mut().enumerate().take(n) {
            *out = match self {
                Self::Float(_) => super::bytes::f32_at(bytes, 4 * i),
                // Stored B, G, R, A; read as R, G, B, A.
                Self::Color => byte([2, 1, 0, 3][i]) / 255.0,
                Self::UByte4 => byte(i),
                Self::UByte4N => byte(i) / 255.0,
                Self::Short2 | Self::Short4 => short(i),
                Self::Short2N | Self::Short4N => (short(i) / 32767.0).max(-1.0),
                Self::UShort2N | Self::UShort4N => ushort(i) / 65535.0,
                Self::UDec3 => ((packed() >> (10 * i)) & 0x3FF) as f32,
                Self::Dec3N => {
                    // Sign-extend the 10-bit field.
                    let field = ((packed() >> (10 * i)) & 0x3FF) as i32;
                    let signed = (field << 22) >> 22;
                    (signed as f32 / 511.0).max(-1.0)
                }
                Self::Half2 | Self::Half4 => half_to_f32(u16_at(bytes, 2 * i)),
            };
        }
        v
    }
}

impl fmt::Display for ElementType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Float(n) => write!(f, "FLOAT{n}"),
            Self::Color => f.write_str("D3DCOLOR"),
            Self::UByte4 => f.write_str("UBYTE4"),
            Self::Short2 => f.write_str("SHORT2"),
            Self::Short4 => f.write_str("SHORT4"),
            Self::UByte4N => f.write_str("UBYTE4N"),
            Self::Short2N => f.write_str("SHORT2N"),
            Self::Short4N => f.write_str("SHORT4N"),
            Self::UShort2N => f.write_str("USHORT2N"),
            Self::UShort4N => f.write_str("USHORT4N"),
            Self::UDec3 => f.write_str("UDEC3"),
            Self::Dec3N => f.write_str("DEC3N"),
            Self::Half2 => f.write_str("FLOAT16_2"),
            Self::Half4 => f.write_str("FLOAT16_4"),
        }
    }
}

/// An IEEE half-precision value as `f32` (exact: every half is an `f32`).
fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((h >> 10) & 0x1F);
    let mantissa = f32::from(h & 0x3FF);
    match exponent {
        0 => sign * mantissa * 2f32.powi(-24),
        31 if mantissa == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        e => sign * (1.0 + mantissa / 1024.0) * 2f32.powi(e - 15),
    }
}

/// What an element means (`D3DDECLUSAGE`), for the usages throng reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Usage {
    Position,
    BlendWeight,
    BlendIndices,
    Normal,
    TexCoord,
    Tangent,
}

impl Usage {
    fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            0 => Self::Position,
            1 => Self::BlendWeight,
            2 => Self::BlendIndices,
            3 => Self::Normal,
            5 => Self::TexCoord,
            6 => Self::Tangent,
            _ => return None,
        })
    }

    /// Fewest components the usage needs.
    fn min_components(self) -> usize {
        match self {
            Self::Position | Self::Normal | Self::Tangent => 3,
            Self::TexCoord => 2,
            Self::BlendWeight | Self::BlendIndices => 1,
        }
    }
}

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Position => "POSITION",
            Self::BlendWeight => "BLENDWEIGHT",
            Self::BlendIndices => "BLENDINDICES",
            Self::Normal => "NORMAL",
            Self::TexCoord => "TEXCOORD",
            Self::Tangent => "TANGENT",
        })
    }
}

/// Where one attribute lies in a vertex and how it is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Element {
    pub(super) offset: usize,
    pub(super) ty: ElementType,
}

/// The attributes throng reads, as the declaration places them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Declaration {
    pub(super) position: Option<Element>,
    pub(super) normal: Option<Element>,
    pub(super) tangent: Option<Element>,
    pub(super) texcoord: Option<Element>,
    pub(super) blend_indices: Option<Element>,
    pub(super) blend_weights: Option<Element>,
}

/// Parses the declaration `records` (32 elements of 8 bytes) for vertices of `stride` bytes.
/// Errors are the end of a sentence about the vertex buffer (`element 3: ...`).
pub(super) fn parse(records: &[u8], stride: u64) -> Result<Declaration, String> {
    let mut decl = Declaration::default();
    for (e, record) in records.chunks_exact(ELEMENT_SIZE).enumerate() {
        let stream = u16_at(record, 0);
        if stream == END_STREAM {
            return finish(decl);
        }
        let fail = |why: String| Err(format!("declaration element {e}: {why}"));
        if stream != 0 {
            return fail(format!(
                "uses stream {stream}; a buffer's declaration can only describe stream 0"
            ));
        }
        let offset = usize::from(u16_at(record, 2));
        let (type_code, method, usage_code, usage_index) = (
            u8_at(record, 4),
            u8_at(record, 5),
            u8_at(record, 6),
            u8_at(record, 7),
        );
        let Some(ty) = ElementType::from_code(type_code) else {
            return fail(format!("unknown type {type_code}"));
        };
        if method != 0 {
            return fail(format!(
                "method {method}; only the default method (0) is supported"
            ));
        }
        if (offset + ty.size()) as u64 > stride {
            return fail(format!(
                "{ty} at offset {offset} runs past the {stride}-byte vertex"
            ));
        }
        let Some(usage) = Usage::from_code(usage_code) else {
            continue; // Binormals, colors, fog, ...: not used.
        };
        if usage_index != 0 {
            continue; // Second texture coordinates and the like: not used.
        }
        if ty.components() < usage.min_components() {
            return fail(format!(
                "{usage} stored as {ty} has {} components; it needs {}",
                ty.components(),
                usage.min_components()
            ));
        }
        if usage == Usage::BlendIndices && !ty.is_integer() {
            return fail(format!(
                "BLENDINDICES stored as {ty}; only UBYTE4, SHORT2 and SHORT4 index bones"
            ));
        }
        let slot = match usage {
            Usage::Position => &mut decl.position,
            Usage::Normal => &mut decl.normal,
            Usage::Tangent => &mut decl.tangent,
            Usage::TexCoord => &mut decl.texcoord,
            Usage::BlendIndices => &mut decl.blend_indices,
            Usage::BlendWeight => &mut decl.blend_weights,
        };
        if slot.is_some() {
            return fail(format!("a second {usage}0 element"));
        }
        *slot = Some(Element { offset, ty });
    }
    Err(format!(
        "the declaration has no end marker (stream 0xFF) in its {MAX_ELEMENTS} elements"
    ))
}

fn finish(decl: Declaration) -> Result<Declaration, String> {
    if decl.position.is_none() {
        return Err("the declaration has no POSITION element".into());
    }
    Ok(decl)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(stream: u16, offset: u16, ty: u8, usage: u8) -> [u8; 8] {
        let [s0, s1] = stream.to_le_bytes();
        let [o0, o1] = offset.to_le_bytes();
        [s0, s1, o0, o1, ty, 0, usage, 0]
    }

    fn records(elements: &[[u8; 8]]) -> Vec<u8> {
        let mut out: Vec<u8> = elements.iter().flatten().copied().collect();
        out.extend(element(0xFF, 0, 17, 0));
        out.resize(MAX_ELEMENTS * ELEMENT_SIZE, 0xCC);
        out
    }

    #[test]
    fn reads_the_soldier_layout_and_stops_at_the_end_marker() {
        let r = records(&[
            element(0, 0, 2, 0),
            element(0, 12, 8, 1),
            element(0, 16, 5, 2),
            element(0, 20, 2, 3),
            element(0, 32, 1, 5),
            element(0, 40, 2, 6),
        ]);
        let d = parse(&r, 52).expect("valid");
        assert_eq!(
            d.blend_weights.map(|e| (e.offset, e.ty)),
            Some((12, ElementType::UByte4N))
        );
        assert_eq!(d.tangent.map(|e| e.offset), Some(40));
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        let past = parse(&records(&[element(0, 44, 2, 0)]), 52).expect_err("past the stride");
        assert!(past.contains("runs past"), "{past}");
        let no_pos = parse(&records(&[element(0, 0, 2, 3)]), 52).expect_err("no position");
        assert!(no_pos.contains("no POSITION"), "{no_pos}");
        let float_idx = parse(&records(&[element(0, 0, 2, 0), element(0, 12, 3, 2)]), 52)
            .expect_err("float indices");
        assert!(float_idx.contains("BLENDINDICES"), "{float_idx}");
        let no_end = parse(&element(0, 0, 2, 7).repeat(MAX_ELEMENTS), 52).expect_err("no end");
        assert!(no_end.contains("no end marker"), "{no_end}");
        let short = parse(&records(&[element(0, 0, 0, 0)]), 52).expect_err("FLOAT1 position");
        assert!(short.contains("POSITION stored as FLOAT1"), "{short}");
    }

    #[test]
    fn decodes_packed_types() {
        assert_eq!(
            ElementType::UByte4N.decode(&[255, 0, 51, 0]),
            [1.0, 0.0, 0.2, 0.0]
        );
        assert_eq!(
            ElementType::Half2.decode(&[0x00, 0x3C, 0x00, 0xC0]),
            [1.0, -2.0, 0.0, 1.0]
        );
        assert_eq!(
            ElementType::Color.decode(&[0, 0, 255, 255]),
            [1.0, 0.0, 0.0, 1.0]
        );
        let dec = ElementType::Dec3N.decode(&(0x1FFu32 | (0x201 << 10)).to_le_bytes());
        assert_eq!(dec[..3], [1.0, -1.0, 0.0]);
    }
}
