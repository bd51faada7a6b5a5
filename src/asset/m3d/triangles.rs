//! The `Triangles` section: three absolute vertex indices per line.

use super::header::Header;
use super::numbers::parse_int;
use super::reader::{Reader, Result};

/// Reads `header.triangles` triangles as a flat index list, and the line of each triangle
/// (for the subset checks that follow).
pub(super) fn read(r: &mut Reader, header: &Header) -> Result<(Vec<u32>, Vec<u32>)> {
    r.enter(super::TRIANGLES)?;
    let mut indices = Vec::with_capacity(header.triangles * 3);
    let mut lines = Vec::with_capacity(header.triangles);
    for t in 0..header.triangles {
        for _ in 0..3 {
            let index = r
                .index(header.vertices, "vertex")
                .map_err(|e| e.at_record(format!("triangle {t}")))?;
            indices.push(index);
        }
        lines.push(u32::try_from(r.line()).unwrap_or(u32::MAX));
    }
    r.end_of_records(header.triangles, "triangles", |t| parse_int(t).is_ok())?;
    Ok((indices, lines))
}
