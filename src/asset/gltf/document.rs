//! Deserializing and validating the glTF JSON with the `gltf` crate, and turning its errors
//! into [`LoadError`]s that name the offending object.

use gltf::Document;
use gltf::json::validation::Error as Rule;

use crate::asset::{ErrorKind, LoadError};

use super::context::Ctx;

/// Parses and validates the JSON (indices in range, enums known, required fields present).
pub(super) fn parse(ctx: &mut Ctx, json: &[u8]) -> Result<Document, LoadError> {
    // Weigh the document before building it: a few bytes of JSON can ask for a large struct.
    let weight = super::json_weight::document_bytes(json).map_err(|e| {
        ctx.error(
            ErrorKind::Syntax,
            "json",
            format!("not valid glTF JSON: {e}"),
        )
    })?;
    ctx.charge_for("json", weight.bytes, || weight.describe())?;
    let root: gltf::json::Root = gltf::json::deserialize::from_slice(json).map_err(|e| {
        ctx.error(
            ErrorKind::Syntax,
            "json",
            format!("not valid glTF JSON: {e}"),
        )
    })?;
    check_version(ctx, &root.asset)?;
    check_before_validation(ctx, &root)?;
    Document::from_json(root).map_err(|e| match e {
        gltf::Error::Validation(errors) => validation_error(ctx, &errors),
        other => ctx.error(ErrorKind::Invalid, "json", other.to_string()),
    })
}

/// `asset.version` must be 2.x and `asset.minVersion`, when present, at most 2.0: the
/// version this loader implements. Both are `major.minor` strings.
fn check_version(ctx: &Ctx, asset: &gltf::json::Asset) -> Result<(), LoadError> {
    let refuse = |message: String| Err(ctx.error(ErrorKind::Unsupported, "asset", message));
    match parse_version(&asset.version) {
        Some((2, _)) => {}
        Some(_) => {
            return refuse(format!(
                "version '{}' is not glTF 2.x, the only version supported",
                asset.version
            ));
        }
        None => {
            return Err(ctx.error(
                ErrorKind::Syntax,
                "asset",
                format!("version '{}' is not of the form major.minor", asset.version),
            ));
        }
    }
    if let Some(min) = &asset.min_version {
        match parse_version(min) {
            Some((2, 0)) => {}
            Some(_) => {
                return refuse(format!(
                    "minVersion '{min}' asks for more than glTF 2.0, the version supported"
                ));
            }
            None => {
                return Err(ctx.error(
                    ErrorKind::Syntax,
                    "asset",
                    format!("minVersion '{min}' is not of the form major.minor"),
                ));
            }
        }
    }
    Ok(())
}

/// `major.minor` (the glTF pattern `^[0-9]+\.[0-9]+$`) as numbers.
fn parse_version(text: &str) -> Option<(u32, u32)> {
    let (major, minor) = text.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(major) || !digits(minor) {
        return None;
    }
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// Checks what the `gltf` crate's validation itself indexes without a bounds check (it
/// looks up each primitive's POSITION accessor to check its `min` and `max`), so that
/// validation cannot panic.
fn check_before_validation(ctx: &Ctx, root: &gltf::json::Root) -> Result<(), LoadError> {
    let positions = gltf::json::validation::Checked::Valid(gltf::json::mesh::Semantic::Positions);
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            if let Some(acc) = prim.attributes.get(&positions)
                && acc.value() >= root.accessors.len()
            {
                return Err(ctx.error(
                    ErrorKind::IndexOutOfRange,
                    format!("meshes[{m}].primitives[{p}]"),
                    format!(
                        "POSITION accessor {} does not exist ({} accessors)",
                        acc.value(),
                        root.accessors.len()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The first validation failure (the rest are usually consequences of the same mistake).
fn validation_error(ctx: &Ctx, errors: &[(gltf::json::Path, Rule)]) -> LoadError {
    let Some((path, rule)) = errors.first() else {
        return ctx.error(ErrorKind::Invalid, "json", "validation failed");
    };
    let (kind, what) = match rule {
        Rule::IndexOutOfBounds => (ErrorKind::IndexOutOfRange, "index out of range"),
        Rule::Invalid => (ErrorKind::Invalid, "invalid value"),
        Rule::Missing => (ErrorKind::Invalid, "required value missing"),
        Rule::Oversize => (ErrorKind::TooLarge, "size or offset too large"),
        Rule::Unsupported => (ErrorKind::Unsupported, "unsupported required extension"),
    };
    let more = match errors.len() {
        1 => String::new(),
        n => format!(" (and {} more problems)", n - 1),
    };
    // The path names the object and the field (`skins[0].joints[2]`); the object is the
    // section, so messages read like the other loaders'.
    let path = path.to_string();
    let (section, field) = split_path(&path);
    let message = if field.is_empty() {
        format!("{what}{more}")
    } else {
        format!("{field}: {what}{more}")
    };
    ctx.error(kind, section, message)
}

/// `meshes[1].primitives[0].indices` → (`meshes[1].primitives[0]`, `indices`).
fn split_path(path: &str) -> (&str, &str) {
    match path.rfind('.') {
        Some(dot) if path[..dot].ends_with(']') => (&path[..dot], &path[dot + 1..]),
        _ => (path, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_version, split_path};

    #[test]
    fn versions_are_major_dot_minor() {
        assert_eq!(parse_version("2.0"), Some((2, 0)));
        assert_eq!(parse_version("2.15"), Some((2, 15)));
        for bad in ["2", "2.", ".0", "2.0.1", "v2.0", "2.0 ", "+2.0", ""] {
            assert_eq!(parse_version(bad), None, "{bad}");
        }
    }

    #[test]
    fn paths_split_into_object_and_field() {
        assert_eq!(
            split_path("meshes[1].primitives[0].indices"),
            ("meshes[1].primitives[0]", "indices")
        );
        assert_eq!(split_path("skins[0].joints[2]"), ("skins[0]", "joints[2]"));
        assert_eq!(split_path("asset"), ("asset", ""));
    }
}
