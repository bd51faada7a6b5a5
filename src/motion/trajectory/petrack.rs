//! Jülich pedestrian data archive / PeTrack text: `id frame x y [z ...]`, whitespace-separated,
//! with optional `#` comments on top that may give the frame rate and the unit.
//!
//! Header facts (checked against PeTrack's `exportTxt` and its documentation, and PedPy's
//! `load_trajectory_from_txt`): PeTrack writes `# framerate: 25 fps`,
//! `# z: can be 3d position or height of person` and `# id frame x/cm y/cm z/cm` (or `x/m`);
//! jpscore writes `#framerate: 16.00` and `#X,Y,Z: the agents coordinates (in metres)`.
//! The rate is the first number on a comment line mentioning `framerate`, `frame rate` or `fps`;
//! the unit is a unit word (`m`, `cm`, `mm`, spelled out or not) after `in`, `unit(s)`, `x/` or
//! `y/`. `z` is taken as the person's height when a comment mentions both `z` and `height`
//! (PeTrack), or when the file has no comments and exactly 5 columns (the archive's
//! `id frame x y z` convention, where z is the height); otherwise it is ignored.
//! A file that states no rate or no unit needs `--data-fps` / `--units`: nothing is guessed.

use std::io::BufRead;

use super::fields;
use super::lines::Lines;
use super::rows::RowSource;
use super::{ReadOptions, Row, TrajectoryError, Units};

/// What the `#` comments on top of the file say.
#[derive(Debug, Default)]
struct Header {
    comments: usize,
    frame_rate: Option<f64>,
    units: Option<Units>,
    z_is_height: bool,
}

/// The comment line's words, lower-cased, split at spaces and punctuation.
fn words(line: &str) -> Vec<String> {
    line.to_ascii_lowercase()
        .split(|c: char| c.is_whitespace() || "#()[]{}/:=,;".contains(c))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

impl Header {
    /// Takes in one comment line (with its `#`).
    fn scan(&mut self, line: &str) -> Result<(), String> {
        self.comments += 1;
        let lower = line.to_ascii_lowercase();
        let words = words(line);
        if lower.contains("framerate")
            || lower.contains("frame rate")
            || words.iter().any(|w| w.ends_with("fps"))
        {
            let rate = words.iter().find_map(|w| {
                let number = w.strip_suffix("fps").unwrap_or(w);
                number.parse::<f64>().ok().filter(|r| r.is_finite())
            });
            if let Some(rate) = rate {
                match self.frame_rate {
                    Some(old) if old != rate => {
                        return Err(format!(
                            "the header gives two frame rates, {old} and {rate}"
                        ));
                    }
                    _ => self.frame_rate = Some(rate),
                }
            }
        }
        for pair in words.windows(2) {
            let introduces = matches!(pair[0].as_str(), "in" | "unit" | "units" | "x" | "y");
            if let (true, Some(unit)) = (introduces, Units::from_word(&pair[1])) {
                match self.units {
                    Some(old) if old != unit => {
                        return Err(format!("the header gives two units, {old} and {unit}"));
                    }
                    _ => self.units = Some(unit),
                }
            }
        }
        if words.iter().any(|w| w == "z") && words.iter().any(|w| w.starts_with("height")) {
            self.z_is_height = true;
        }
        Ok(())
    }
}

/// The rows of a PeTrack / Jülich text file, in file order.
pub struct PeTrackRows<R> {
    lines: Lines<R>,
    frame_rate: f64,
    units: Units,
    columns: usize,
    first_data_line: u64,
    height: bool,
    pending: bool,
    done: bool,
}

impl<R: BufRead> PeTrackRows<R> {
    /// Reads the header comments and the first data line; fails if the rate or the unit is
    /// neither in the header nor in `options`.
    pub fn open(file: &str, reader: R, options: &ReadOptions) -> Result<Self, TrajectoryError> {
        let mut lines = Lines::new(file, reader);
        let mut header = Header::default();
        let found = loop {
            if !lines.advance()? {
                break false;
            }
            let text = lines.text().trim();
            if text.starts_with('#') {
                header.scan(text).map_err(|e| lines.error(e))?;
            } else if !text.is_empty() {
                break true;
            }
        };
        if !found {
            return Err(TrajectoryError::file(
                file,
                "no pedestrians: the file has no data rows",
            ));
        }
        let frame_rate = options.data_fps.or(header.frame_rate);
        let units = options.units.or(header.units);
        let (frame_rate, units) = match (frame_rate, units) {
            (Some(f), Some(u)) => (f, u),
            (None, None) => {
                return Err(TrajectoryError::file(
                    file,
                    "the file states no frame rate and no unit: give --data-fps and --units",
                ));
            }
            (None, _) => {
                return Err(TrajectoryError::file(
                    file,
                    "the file states no frame rate: give --data-fps",
                ));
            }
            (_, None) => {
                return Err(TrajectoryError::file(
                    file,
                    "the file states no unit: give --units (m, cm or mm)",
                ));
            }
        };
        let frame_rate =
            fields::frame_rate(frame_rate).map_err(|e| TrajectoryError::file(file, e))?;
        let columns = lines.text().split_whitespace().count();
        if columns < 4 {
            return Err(lines.error(format!(
                "{columns} fields, expected at least 4 (id frame x y)"
            )));
        }
        let height = columns >= 5 && (header.z_is_height || (header.comments == 0 && columns == 5));
        let first_data_line = lines.number();
        Ok(Self {
            lines,
            frame_rate,
            units,
            columns,
            first_data_line,
            height,
            pending: true,
            done: false,
        })
    }

    /// The frame rate used (the option's, else the header's).
    pub fn frame_rate(&self) -> f64 {
        self.frame_rate
    }

    /// The unit used (the option's, else the header's).
    pub fn units(&self) -> Units {
        self.units
    }

    /// Whether the fifth column is read as the person's height.
    pub fn has_height(&self) -> bool {
        self.height
    }

    fn parse(&self) -> Result<Row, String> {
        let f: Vec<&str> = self.lines.text().split_whitespace().collect();
        if f.len() != self.columns {
            return Err(format!(
                "{} fields, expected {} like line {}",
                f.len(),
                self.columns,
                self.first_data_line
            ));
        }
        let scale = self.units.metres_per_unit();
        let id = fields::id(f[0])?;
        let frame = fields::frame(f[1])?;
        let x = fields::metres("x", f[2], scale)?;
        let y = fields::metres("y", f[3], scale)?;
        let height = if self.height {
            Some(fields::height("z (height)", f[4], scale)?)
        } else {
            None
        };
        Ok(Row {
            id,
            time: frame as f64 / self.frame_rate,
            position: [x, y],
            height,
        })
    }
}

impl<R: BufRead> Iterator for PeTrackRows<R> {
    type Item = Result<Row, TrajectoryError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if !std::mem::take(&mut self.pending) {
            match self.lines.advance_to_data() {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    return None;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        let row = self.parse().map_err(|e| self.lines.error(e));
        self.done = row.is_err();
        Some(row)
    }
}

impl<R: BufRead> RowSource for PeTrackRows<R> {
    fn file(&self) -> &str {
        self.lines.file()
    }

    fn location(&self) -> Option<String> {
        Some(format!("line {}", self.lines.number()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ReadOptions, Units};
    use super::{Header, PeTrackRows};

    #[test]
    fn header_variants() {
        let mut h = Header::default();
        for line in [
            "# framerate: 25 fps",
            "# z: can be 3d position or height of person",
            "# id frame x/cm y/cm z/cm",
        ] {
            h.scan(line).unwrap();
        }
        assert_eq!(
            (h.frame_rate, h.units, h.z_is_height),
            (Some(25.0), Some(Units::Centimetres), true)
        );
        let mut h = Header::default();
        for line in [
            "#framerate: 16.00",
            "#X,Y,Z: the agents coordinates (in metres)",
            "#V: speed (in m/s)",
            "# description: a 1.8 m corridor",
        ] {
            h.scan(line).unwrap();
        }
        assert_eq!(
            (h.frame_rate, h.units, h.z_is_height),
            (Some(16.0), Some(Units::Metres), false)
        );
        let mut h = Header::default();
        h.scan("# fps 10").unwrap();
        h.scan("# unit: mm").unwrap();
        assert_eq!(
            (h.frame_rate, h.units),
            (Some(10.0), Some(Units::Millimetres))
        );
        assert!(
            h.scan("# framerate: 25")
                .unwrap_err()
                .contains("two frame rates")
        );
        assert!(h.scan("# x/cm").unwrap_err().contains("two units"));
    }

    #[test]
    fn rows_in_metres_and_seconds() {
        let text = "# framerate: 25 fps\n# z: height of person\n# id frame x/cm y/cm z/cm\n1 50 100 -250 180\n\n2 50 0 0 160.5\n1 51 110 -250 180\n";
        let rows = PeTrackRows::open("p.txt", text.as_bytes(), &ReadOptions::default()).unwrap();
        assert!(rows.has_height());
        let rows: Vec<_> = rows.map(Result::unwrap).collect();
        assert_eq!(rows.len(), 3);
        assert_eq!(
            (rows[0].id, rows[0].time, rows[0].position, rows[0].height),
            (1, 2.0, [1.0, -2.5], Some(1.8))
        );
        assert_eq!(rows[1].height, Some(1.605));
        assert_eq!(rows[2].time, 51.0 / 25.0);
        // The jpscore text has z as a coordinate and 9 columns: no height.
        let text = "#framerate: 8\n#X,Y,Z: the agents coordinates (in metres)\n1\t0\t3.30\t3.33\t0.00\t0.18\t0.25\t-90.00\t0\n";
        let mut rows =
            PeTrackRows::open("j.txt", text.as_bytes(), &ReadOptions::default()).unwrap();
        assert!(!rows.has_height());
        assert_eq!(rows.next().unwrap().unwrap().position, [3.30, 3.33]);
    }
}
