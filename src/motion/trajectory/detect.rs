//! Telling the format from the first few KiB of a file; the extension only breaks ties.

use std::path::Path;

use super::Format;
use super::split::{Delimiter, guess_delimiter, split};

/// How many leading bytes [`detect`] is meant to see.
pub const HEAD_BYTES: usize = 8192;

/// SQLite's file header.
pub(crate) const SQLITE_MAGIC: &[u8] = b"SQLite format 3\0";

/// The format of a file whose first bytes are `head` (up to [`HEAD_BYTES`]); `None` if neither
/// the content nor the extension says.
///
/// By content: the SQLite magic (JuPedSim); a `#IDXCOL` comment or a `pedestrianId ... simTime`
/// header (Vadere); a quoted `"t","id",...` header (Pathfinder); rows of whitespace-separated
/// numbers after `#` comments (PeTrack), or without comments 5 columns (PeTrack, the Jülich
/// archive's `id frame x y z`) or 4 or 8 (ETH/UCY's `frame id x y` and `obsmat.txt`); any other
/// delimited text (a generic CSV).
pub fn detect(path: &Path, head: &[u8]) -> Option<Format> {
    if head.starts_with(SQLITE_MAGIC) {
        return Some(Format::JuPedSim);
    }
    by_content(head).or_else(|| by_extension(path))
}

/// The format a file's extension suggests.
fn by_extension(path: &Path) -> Option<Format> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "sqlite" | "sqlite3" | "db" => Some(Format::JuPedSim),
        "traj" => Some(Format::Vadere),
        "csv" => Some(Format::Csv),
        _ => None,
    }
}

fn by_content(head: &[u8]) -> Option<Format> {
    let text = String::from_utf8_lossy(head);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    // The head may end inside a line; that line says nothing reliable.
    if !text.ends_with('\n') && lines.len() > 1 {
        lines.pop();
    }
    let first = *lines.first()?;
    if first.starts_with("#IDXCOL") {
        return Some(Format::Vadere);
    }
    let comments = lines.iter().any(|l| l.starts_with('#'));
    let data: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.starts_with('#'))
        .take(20)
        .collect();
    let Some(&first_data) = data.first() else {
        return comments.then_some(Format::PeTrack);
    };
    let words: Vec<&str> = first_data.split_whitespace().collect();
    if words.contains(&"pedestrianId") && words.iter().any(|w| w.starts_with("simTime")) {
        return Some(Format::Vadere);
    }
    let mut fields = Vec::new();
    if first_data.starts_with('"') && split(first_data, Delimiter::Char(','), &mut fields).is_ok() {
        let has = |name: &str| fields.iter().any(|f| f == name);
        if fields.first().is_some_and(|f| f == "t") && has("id") && has("x") && has("y") {
            return Some(Format::Pathfinder);
        }
    }
    let numeric_columns = whitespace_numeric_columns(&data);
    match (numeric_columns, comments) {
        (Some(n), true) if n >= 4 => Some(Format::PeTrack),
        (Some(5), false) => Some(Format::PeTrack),
        (Some(4 | 8), false) => Some(Format::EthUcy),
        (Some(_), _) => None,
        (None, _) => match guess_delimiter(first_data) {
            Delimiter::Char(_) => Some(Format::Csv),
            Delimiter::Whitespace => None,
        },
    }
}

/// The column count if every line is whitespace-separated numbers, all with the same count.
fn whitespace_numeric_columns(lines: &[&str]) -> Option<usize> {
    let mut count = None;
    for line in lines {
        if line.contains(',') || line.contains(';') {
            return None;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if !fields.iter().all(|f| f.parse::<f64>().is_ok()) {
            return None;
        }
        match count {
            None => count = Some(fields.len()),
            Some(n) if n != fields.len() => return None,
            Some(_) => {}
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::{Format, detect};
    use std::path::Path;

    #[test]
    fn by_content_then_extension() {
        let p = Path::new("x.txt");
        let d = |s: &str| detect(p, s.as_bytes());
        assert_eq!(detect(p, b"SQLite format 3\0rest"), Some(Format::JuPedSim));
        assert_eq!(
            d("#IDXCOL=2,DATACOL=6,SEP=' '\npedestrianId simTime\n"),
            Some(Format::Vadere)
        );
        assert_eq!(
            d("\"t\",\"id\",\"name\",\"active\",\"x\",\"y\"\n\"s\",\"\",\"\",\"\",\"m\",\"m\"\n"),
            Some(Format::Pathfinder)
        );
        assert_eq!(d("# framerate: 16\n1 0 1.0 2.0\n"), Some(Format::PeTrack));
        assert_eq!(
            d("1 60 61.5 771.0 181.5\n1 61 61.2 760.5 181.5\n"),
            Some(Format::PeTrack)
        );
        assert_eq!(
            d("780.0\t1.0\t8.46\t3.59\n790.0\t1.0\t9.57\t3.79\n"),
            Some(Format::EthUcy)
        );
        assert_eq!(d("1 2 3 4 5 6 7 8\n"), Some(Format::EthUcy));
        assert_eq!(d("ped,t,x,y\n1,0.0,1,2\n"), Some(Format::Csv));
        assert_eq!(d("1 2 3 4 5 6\n"), None);
        assert_eq!(d(""), None);
        assert_eq!(detect(Path::new("a.traj"), b""), Some(Format::Vadere));
        assert_eq!(
            detect(Path::new("a.sqlite"), b"\x00\x01"),
            Some(Format::JuPedSim)
        );
        // A cut last line does not spoil the count.
        assert_eq!(d("780 1 8.46 3.59\n790 1 9.5"), Some(Format::EthUcy));
    }
}
