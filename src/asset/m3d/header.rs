//! The `m3d-File-Header` section: five counts that every later section must keep.

use super::layout;
use super::reader::{Reader, Result};
use crate::anim::MAX_JOINTS;
use crate::asset::ErrorKind;

/// The header's counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Header {
    pub(super) materials: usize,
    pub(super) vertices: usize,
    pub(super) triangles: usize,
    pub(super) bones: usize,
    pub(super) clips: usize,
}

impl Header {
    /// A model without bones: vertices carry no blend data and there are no clips.
    pub(super) fn is_static(&self) -> bool {
        self.bones == 0
    }
}

/// Reads the header and checks each count against the size of the whole file, so that no
/// later allocation is driven by a count the file cannot back.
pub(super) fn read(r: &mut Reader) -> Result<Header> {
    r.enter(super::HEADER)?;
    let mut field = |keyword: &'static str| -> Result<usize> {
        r.keyword(keyword)
            .and_then(|()| r.count())
            .map_err(|e| e.at_record(keyword))
    };
    let header = Header {
        materials: field("#Materials")?,
        vertices: field("#Vertices")?,
        triangles: field("#Triangles")?,
        bones: field("#Bones")?,
        clips: field("#AnimationClips")?,
    };
    check(r, &header)?;
    Ok(header)
}

fn check(r: &Reader, h: &Header) -> Result<()> {
    if h.bones > MAX_JOINTS {
        return Err(r
            .error(
                ErrorKind::TooLarge,
                format_args!("{} bones is more than the {MAX_JOINTS} supported", h.bones),
            )
            .at_record("#Bones"));
    }
    if h.is_static() && h.clips > 0 {
        return Err(r
            .error(
                ErrorKind::Invalid,
                "a model without bones (#Bones 0) cannot have animation clips",
            )
            .at_record("#AnimationClips"));
    }
    // Indices are u32 and a subset's first index is 3 * FaceStart.
    if h.triangles > u32::MAX as usize / 3 {
        return Err(r
            .error(
                ErrorKind::TooLarge,
                format_args!(
                    "{} triangles is more than a u32 index can reach",
                    h.triangles
                ),
            )
            .at_record("#Triangles"));
    }
    let vertex = if h.is_static() {
        layout::STATIC_VERTEX
    } else {
        layout::SKINNED_VERTEX
    };
    let counts = [
        (
            "#Materials",
            h.materials,
            layout::MATERIAL + layout::SUBSET,
            "materials",
        ),
        ("#Vertices", h.vertices, vertex, "vertices"),
        ("#Triangles", h.triangles, layout::TRIANGLE, "triangles"),
        (
            "#Bones",
            h.bones,
            layout::BONE_OFFSET + layout::PARENT,
            "bones",
        ),
        ("#AnimationClips", h.clips, layout::clip(h.bones), "clips"),
    ];
    for (keyword, count, min_bytes, noun) in counts {
        let need = (count as u64).saturating_mul(min_bytes as u64);
        if need > r.file_len() as u64 {
            return Err(r
                .error(
                    ErrorKind::TooLarge,
                    format_args!(
                        "{count} {noun} need at least {need} bytes, but the whole file has {}",
                        r.file_len()
                    ),
                )
                .at_record(keyword));
        }
    }
    Ok(())
}
