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
use super::rows::NO_ROWS;
use super::text_rows::{DataLines, row_per_line};
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

/// How a line becomes a row: the rate and unit settled on, and the first data line's shape.
struct Layout {
    frame_rate: f64,
    units: Units,
    columns: usize,
    first_data_line: u64,
    height: bool,
}

/// The rows of a PeTrack / Jülich text file, in file order.
pub struct PeTrackRows<R> {
    lines: DataLines<R>,
    layout: Layout,
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
            return Err(TrajectoryError::file(file, NO_ROWS));
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
        let layout = Layout {
            frame_rate,
            units,
            columns,
            first_data_line: lines.number(),
            height,
        };
        Ok(Self {
            lines: DataLines::new(lines, true),
            layout,
        })
    }

    /// The frame rate used (the option's, else the header's).
    pub fn frame_rate(&self) -> f64 {
        self.layout.frame_rate
    }

    /// The unit used (the option's, else the header's).
    pub fn units(&self) -> Units {
        self.layout.units
    }

    /// Whether the fifth column is read as the person's height.
    pub fn has_height(&self) -> bool {
        self.layout.height
    }
}

impl Layout {
    /// The row on the current line.
    fn parse(&self, line: &Lines<impl BufRead>) -> Result<Row, String> {
        let f: Vec<&str> = line.text().split_whitespace().collect();
        let first = self.first_data_line;
        fields::field_count(f.len(), self.columns, format_args!("line {first}"))?;
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

row_per_line!(PeTrackRows);

#[cfg(test)]
mod tests {
    use super::super::{ReadOptions, Units};
    use super::{Header, PeTrackRows};

    /// The header of the comment lines `lines`.
    fn scanned(lines: &[&str]) -> Header {
        let mut h = Header::default();
        for line in lines {
            h.scan(line).unwrap();
        }
        h
    }

    #[test]
    fn header_variants() {
        let cases: [(&[&str], _); 2] = [
            (
                &[
                    "# framerate: 25 fps",
                    "# z: can be 3d position or height of person",
                    "# id frame x/cm y/cm z/cm",
                ],
                (Some(25.0), Some(Units::Centimetres), true),
            ),
            (
                &[
                    "#framerate: 16.00",
                    "#X,Y,Z: the agents coordinates (in metres)",
                    "#V: speed (in m/s)",
                    "# description: a 1.8 m corridor",
                ],
                (Some(16.0), Some(Units::Metres), false),
            ),
        ];
        for (lines, want) in cases {
            let h = scanned(lines);
            assert_eq!((h.frame_rate, h.units, h.z_is_height), want, "{lines:?}");
        }
        let mut h = scanned(&["# fps 10", "# unit: mm"]);
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
