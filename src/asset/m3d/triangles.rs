//! The `Triangles` section: three absolute vertex indices per line.

use super::header::Header;
use super::numbers::parse_int;
use super::reader::{Reader, Result};

/// Reads `header.triangles` triangles as a flat index list, and where the section's banner
/// starts (so the subset checks that follow can find a triangle's line again, only when one
/// fails: see [`line_of`]).
pub(super) fn read(r: &mut Reader, header: &Header) -> Result<(Vec<u32>, usize)> {
    r.enter(super::TRIANGLES)?;
    let banner = r.position();
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
    Ok((indices, banner))
}

/// The line of triangle `t`, given where the section's banner starts: its first index is
/// the token `1 + 3t` after the banner (each triangle is exactly three tokens).
pub(super) fn line_of(r: &Reader, banner: usize, t: usize) -> usize {
    r.line_of_token(banner, 1 + 3 * t)
}
