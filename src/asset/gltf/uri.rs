//! URIs of buffers and images: base64 `data:` URIs, and relative file references resolved
//! inside the folder of the `.gltf` file (never absolute, never escaping it with `..`).

use std::path::{Component, Path, PathBuf};

use base64::Engine;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};

use crate::asset::{ErrorKind, LoadError, source};

use super::context::Ctx;

/// Standard alphabet; padding optional, since writers differ.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// What a URI refers to.
pub(super) enum Target<'u> {
    /// The payload of a base64 `data:` URI (still encoded).
    Data(&'u str),
    /// A file relative to the glTF file's folder (percent-decoded, checked).
    File(PathBuf),
}

/// Classifies `uri`, rejecting schemes other than `data:` and paths that are absolute or
/// climb out of the model's folder.
pub(super) fn parse<'u>(ctx: &Ctx, section: &str, uri: &'u str) -> Result<Target<'u>, LoadError> {
    let unsupported = |m: String| ctx.error(ErrorKind::Unsupported, section, m);
    if let Some(rest) = uri.strip_prefix("data:") {
        let Some((header, payload)) = rest.split_once(',') else {
            return Err(ctx.error(
                ErrorKind::Syntax,
                section,
                "data URI without a ',' before its payload",
            ));
        };
        if !header.ends_with(";base64") {
            return Err(unsupported(format!(
                "data URI '{}' is not base64 (only base64 data URIs are supported)",
                shorten(header)
            )));
        }
        return Ok(Target::Data(payload));
    }
    if has_scheme(uri) {
        return Err(unsupported(format!(
            "URI '{}' has a scheme; only data: URIs and relative file paths are supported",
            shorten(uri)
        )));
    }
    let decoded = percent_decode(uri).ok_or_else(|| {
        ctx.error(
            ErrorKind::Syntax,
            section,
            format!("URI '{}' has a bad percent escape", shorten(uri)),
        )
    })?;
    let path = PathBuf::from(&decoded);
    let escapes = decoded.starts_with('/')
        || decoded.starts_with('\\')
        || decoded.contains('\\')
        || path
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir));
    if escapes || decoded.is_empty() {
        return Err(unsupported(format!(
            "file URI '{}' is absolute or leaves the model's folder; only relative paths \
             inside it are loaded",
            shorten(uri)
        )));
    }
    Ok(Target::File(path))
}

/// Decodes the payload of a base64 data URI.
pub(super) fn decode_base64(ctx: &Ctx, section: &str, payload: &str) -> Result<Vec<u8>, LoadError> {
    BASE64.decode(payload.trim_end()).map_err(|e| {
        ctx.error(
            ErrorKind::Syntax,
            section,
            format!("invalid base64 in data URI: {e}"),
        )
    })
}

/// Reads at most `limit` bytes of `relative` inside `base_dir`; `None` for `base_dir` means
/// the caller gave bytes with no folder, so there is nothing to read from.
pub(super) fn read_file(
    ctx: &Ctx,
    section: &str,
    base_dir: Option<&Path>,
    relative: &Path,
    limit: u64,
) -> Result<Vec<u8>, LoadError> {
    let Some(base) = base_dir else {
        return Err(ctx.error(
            ErrorKind::Unsupported,
            section,
            format!(
                "external file '{}' cannot be read: the model was given as bytes with no folder",
                relative.display()
            ),
        ));
    };
    // The caller's limit (a buffer's declared length, the image cap) never exceeds the
    // user's cap on any one file.
    let limit = limit.min(ctx.max_file_size);
    source::read_referenced(base, relative, limit).map_err(|f| {
        ctx.error(
            f.kind,
            section,
            format!("'{}' {}", relative.display(), f.why),
        )
    })
}

/// `scheme:` as RFC 3986 defines it (a letter, then letters, digits, `+`, `-`, `.`). One
/// letter before the colon is a Windows drive, which is rejected as absolute elsewhere.
fn has_scheme(uri: &str) -> bool {
    match uri.split_once(':') {
        Some((scheme, _)) => {
            let mut chars = scheme.chars();
            chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        }
        None => false,
    }
}

/// Decodes `%XX` escapes; `None` for a malformed escape or a result that is not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// URIs can be megabytes of base64: messages show the start only.
fn shorten(s: &str) -> String {
    const MAX: usize = 60;
    match s.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}...", &s[..at]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_escapes_decode() {
        assert_eq!(percent_decode("a%20b.bin").as_deref(), Some("a b.bin"));
        assert_eq!(percent_decode("bad%2"), None);
        assert_eq!(percent_decode("bad%zz"), None);
    }

    #[test]
    fn schemes_and_escapes_are_rejected() {
        let ctx = Ctx::new("m.gltf", 0);
        assert!(matches!(
            parse(&ctx, "b", "data:application/octet-stream;base64,AAAA"),
            Ok(Target::Data("AAAA"))
        ));
        for bad in [
            "http://x/y.bin",
            "/etc/passwd",
            "../up.bin",
            "a/../../b",
            "C:\\x.bin",
            "a\\b",
        ] {
            assert!(parse(&ctx, "b", bad).is_err(), "{bad}");
        }
        assert!(
            matches!(parse(&ctx, "b", "sub/dir%20x/file.bin"), Ok(Target::File(p)) if p == Path::new("sub/dir x/file.bin"))
        );
    }
}
