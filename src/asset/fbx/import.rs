//! Calling ufbx: the load options throng reads every FBX file with, and ufbx's errors in
//! throng's terms.

use ufbx::{
    CoordinateAxes, ErrorType, FileFormat, GeometryTransformHandling, IndexErrorHandling,
    InheritModeHandling, LoadOpts, PivotHandling, SceneRoot, SpaceConversion, UnicodeErrorHandling,
};

use super::allocator::{self, Pool};
use crate::asset::budget::{Budget, human};
use crate::asset::{ErrorKind, LoadError};

/// The deepest node hierarchy read. ufbx walks parents without recursion, so this is not
/// about the stack: it keeps the per-node work of a hostile chain linear and small. Real
/// characters are a few dozen nodes deep.
pub const NODE_DEPTH_LIMIT: u32 = 1024;

/// Parses `bytes` (a whole FBX file, binary or ASCII) into ufbx's scene, with every byte
/// ufbx allocates on the way (its temporary memory and the scene) held to what is left of
/// `budget`; the scene's bytes are then charged to it.
///
/// The scene is converted to throng's space: right-handed, +Y up (+Z front), axes turned by
/// changing the geometry and node transforms themselves, so no extra root transform appears;
/// the file's unit is kept. Nothing outside `bytes` is opened: ufbx loads no external file.
pub(super) fn load(file: &str, bytes: &[u8], budget: &mut Budget) -> Result<SceneRoot, LoadError> {
    let limit = budget.limit().saturating_sub(budget.used());
    let pool = Pool::new(limit);
    let opts = LoadOpts {
        temp_allocator: allocator::options(&pool),
        result_allocator: allocator::options(&pool),
        file_format: FileFormat::Fbx,
        // Only the content decides: an `.fbx` that is an OBJ is not read as one.
        no_format_from_extension: true,
        load_external_files: false,
        strict: false,
        // Real files have out-of-range attribute indices now and then (a -1 for a missing
        // UV): ufbx clamps them into range, so every index it hands back is valid (and the
        // loader checks each again anyway).
        index_error_handling: IndexErrorHandling::Clamp,
        unicode_error_handling: UnicodeErrorHandling::ReplacementCharacter,
        node_depth_limit: NODE_DEPTH_LIMIT,
        generate_missing_normals: true,
        clean_skin_weights: true,
        target_axes: CoordinateAxes::right_handed_y_up(),
        space_conversion: SpaceConversion::ModifyGeometry,
        // Pivots, pre- and post-rotations stay in each node's local transform, which ufbx
        // resolves into translation, rotation and scale.
        pivot_handling: PivotHandling::Retain,
        // Maya's "segment scale compensate" and other non-standard inheritance cannot be a
        // joint's plain parent-times-local: ufbx rewrites it as ordinary inheritance, with a
        // helper node where a scale is animated or not uniform.
        inherit_mode_handling: InheritModeHandling::Compensate,
        geometry_transform_handling: GeometryTransformHandling::Preserve,
        ..LoadOpts::default()
    };
    let scene = ufbx::load_memory(bytes, opts).map_err(|e| {
        let (kind, message) = match e.type_ {
            ErrorType::OutOfMemory | ErrorType::MemoryLimit | ErrorType::AllocationLimit => (
                ErrorKind::TooLarge,
                format!(
                    "reading this file needs more than the load budget of {}",
                    budget.describe()
                ),
            ),
            ErrorType::TruncatedFile => (ErrorKind::Truncated, reason(&e)),
            ErrorType::UnrecognizedFileFormat | ErrorType::EmptyFile => (
                ErrorKind::Syntax,
                format!("{}: not an FBX file (binary or ASCII)", reason(&e)),
            ),
            ErrorType::UnsupportedVersion => (ErrorKind::Unsupported, reason(&e)),
            ErrorType::NodeDepthLimit => (
                ErrorKind::TooLarge,
                format!("nodes are nested deeper than {NODE_DEPTH_LIMIT}"),
            ),
            ErrorType::BadIndex => (ErrorKind::IndexOutOfRange, reason(&e)),
            _ => (ErrorKind::Invalid, reason(&e)),
        };
        LoadError::new(file, kind, message).in_section("ufbx")
    })?;
    // The temporary memory is gone; what is left is the scene, held until the model is built.
    let held = pool.live();
    budget
        .charge(held, || format!("ufbx's scene ({})", human(held)))
        .map_err(|e| e.into_load_error(file, "ufbx"))?;
    log::debug!(
        "{file}: ufbx held at most {} and keeps {} for the scene",
        human(pool.peak()),
        human(held)
    );
    Ok(scene)
}

/// ufbx's description of an error, as the end of a sentence (after the section `ufbx`).
fn reason(e: &ufbx::Error) -> String {
    // The description is one of ufbx's own messages (a C string literal). Its `info()` is not
    // read: the crate unwraps it as UTF-8, and it may hold text from the file cut anywhere.
    let text = crate::text::printable(&e.description).into_owned();
    if text.is_empty() {
        format!("could not read the file ({:?})", e.type_)
    } else {
        format!("could not read the file: {text}")
    }
}
