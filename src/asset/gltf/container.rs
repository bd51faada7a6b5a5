//! Telling binary glTF (GLB) from JSON glTF and splitting a GLB into its JSON and BIN chunks.
//!
//! Layout (glTF 2.0, section 4.4): a 12-byte header (`glTF`, version 2, total length), then
//! chunks of `length: u32, type: u32, data`; the first is `JSON`, an optional second `BIN\0`
//! holds buffer 0. Chunks of other types are skipped, as the format asks.

use crate::asset::{ErrorKind, LoadError};

use super::context::Ctx;

const MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// The parts of a glTF file.
pub(super) struct Container<'a> {
    /// Whether the file was binary glTF.
    pub binary: bool,
    /// The JSON text.
    pub json: &'a [u8],
    /// The BIN chunk of a GLB (buffer 0 when that buffer has no URI).
    pub bin: Option<&'a [u8]>,
}

/// Splits `bytes`: a file starting with the GLB magic is binary; otherwise a name ending in
/// `.glb` means a damaged GLB; anything else is taken as JSON.
pub(super) fn split<'a>(ctx: &Ctx, bytes: &'a [u8]) -> Result<Container<'a>, LoadError> {
    if bytes.starts_with(MAGIC) {
        return split_glb(ctx, bytes);
    }
    if ctx.file.to_ascii_lowercase().ends_with(".glb") {
        let found: Vec<String> = bytes.iter().take(4).map(|b| format!("{b:02x}")).collect();
        return Err(ctx.error(
            ErrorKind::Syntax,
            "header",
            format!(
                "not binary glTF: the file starts with [{}] instead of the magic 'glTF'",
                found.join(" ")
            ),
        ));
    }
    Ok(Container {
        binary: false,
        json: bytes,
        bin: None,
    })
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn split_glb<'a>(ctx: &Ctx, bytes: &'a [u8]) -> Result<Container<'a>, LoadError> {
    let header = |kind, message: String| ctx.error(kind, "header", message);
    let (Some(version), Some(length)) = (u32_at(bytes, 4), u32_at(bytes, 8)) else {
        return Err(header(
            ErrorKind::Truncated,
            format!(
                "the GLB header needs 12 bytes, the file has {}",
                bytes.len()
            ),
        ));
    };
    if version != 2 {
        return Err(header(
            ErrorKind::Unsupported,
            format!("GLB version {version} (only glTF 2.0 is supported)"),
        ));
    }
    let length = length as usize;
    if length > bytes.len() {
        return Err(header(
            ErrorKind::Truncated,
            format!(
                "the header promises {length} bytes, the file has {}",
                bytes.len()
            ),
        ));
    }
    if length < bytes.len() {
        // Name what lies past the declared end: a BIN chunk there is otherwise reported as
        // missing, which it is not.
        let what = match u32_at(bytes, length + 4) {
            Some(CHUNK_BIN) => "a BIN chunk",
            Some(CHUNK_JSON) => "a JSON chunk",
            _ => "data",
        };
        return Err(header(
            ErrorKind::Invalid,
            format!(
                "the header declares {length} bytes, but the file has {} ({what} at byte \
                 {length} lies past the declared length)",
                bytes.len()
            ),
        ));
    }
    let bytes = &bytes[..length];
    let mut unknown_chunk = None;
    let mut at = 12usize;
    let mut json = None;
    let mut bin = None;
    let mut chunk = 0usize;
    while at < bytes.len() {
        let section = format!("chunk {chunk}");
        let (Some(len), Some(kind)) = (u32_at(bytes, at), u32_at(bytes, at + 4)) else {
            return Err(ctx.error(
                ErrorKind::Truncated,
                section,
                format!("the chunk header at byte {at} runs past the end ({length} bytes)"),
            ));
        };
        let start = at + 8;
        let end = start
            .checked_add(len as usize)
            .filter(|&end| end <= bytes.len())
            .ok_or_else(|| {
                ctx.error(
                    ErrorKind::Truncated,
                    section.clone(),
                    format!(
                        "the chunk claims {len} bytes from byte {start}, past the end of the \
                         {length}-byte file"
                    ),
                )
            })?;
        let data = &bytes[start..end];
        match (chunk, kind) {
            (0, CHUNK_JSON) => json = Some(data),
            (0, _) => {
                return Err(ctx.error(
                    ErrorKind::Syntax,
                    section,
                    format!("the first chunk must be JSON, found type 0x{kind:08x}"),
                ));
            }
            (1, CHUNK_BIN) => bin = Some(data),
            (_, CHUNK_JSON) => {
                return Err(ctx.error(ErrorKind::Invalid, section, "a second JSON chunk"));
            }
            (_, CHUNK_BIN) => {
                let after = match unknown_chunk {
                    Some((c, t)) => {
                        format!("a BIN chunk after chunk {c} of unknown type 0x{t:08x}")
                    }
                    None => "a second BIN chunk".to_string(),
                };
                return Err(ctx.error(
                    ErrorKind::Invalid,
                    section,
                    format!("{after}: the BIN chunk must be chunk 1, right after the JSON chunk"),
                ));
            }
            // Unknown chunk types are skipped (extensions may add them).
            (c, t) => {
                unknown_chunk.get_or_insert((c, t));
            }
        }
        // Chunks are 4-byte aligned; tolerate writers that forgot the padding.
        at = end;
        chunk += 1;
    }
    let json = json
        .ok_or_else(|| ctx.error(ErrorKind::Truncated, "chunk 0", "the GLB has no JSON chunk"))?;
    Ok(Container {
        binary: true,
        json,
        bin,
    })
}
