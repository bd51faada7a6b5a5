//! The `Triangles` section: three absolute vertex indices per line.

use super::header::Header;
use super::numbers::parse_int;
use super::reader::{Reader, Result};

/// Reads `header.triangles` triangles as a flat index list.
pub(super) fn read(r: &mut Reader, header: &Header) -> Result<Vec<u32>> {
    r.enter(super::TRIANGLES)?;
    let mut indices = Vec::with_capacity(header.triangles * 3);
    for t in 0..header.triangles {
        for _ in 0..3 {
            let index = r
                .index(header.vertices, "vertex")
                .map_err(|e| e.at_record(format!("triangle {t}")))?;
            indices.push(index);
        }
    }
    r.end_of_records(header.triangles, "triangles", |t| parse_int(t).is_ok())?;
    Ok(indices)
}
