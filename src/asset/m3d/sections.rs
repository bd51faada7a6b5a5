//! The section names of an `.m3d` file, which every error names, and the line a late error
//! adds.

use crate::asset::LoadError;

/// `e` with `(line N)` added, for errors found after the record's tokens were read (by the
/// animation core, or by checks across sections): every `.m3d` error names a line.
pub(crate) fn at_line(mut e: LoadError, line: usize) -> LoadError {
    e.message = format!("{} (line {line})", e.message);
    e
}

/// The format name models loaded here report.
pub const FORMAT: &str = "m3d";

/// Banner titles, in file order; errors name the section with them.
pub(crate) const HEADER: &str = "m3d-File-Header";
pub(crate) const MATERIALS: &str = "Materials";
pub(crate) const SUBSET_TABLE: &str = "SubsetTable";
pub(crate) const VERTICES: &str = "Vertices";
pub(crate) const TRIANGLES: &str = "Triangles";
pub(crate) const BONE_OFFSETS: &str = "BoneOffsets";
pub(crate) const BONE_HIERARCHY: &str = "BoneHierarchy";
pub(crate) const ANIMATION_CLIPS: &str = "AnimationClips";
