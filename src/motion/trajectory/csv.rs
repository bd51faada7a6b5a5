//! Any other delimited table (comma, semicolon, tab or spaces), described by
//! [`Columns`]: an id, a time (seconds) or a frame column, x and y, optionally z and the
//! person's height. The first line is a header row when any of its fields is not a number.
//!
//! A CSV states neither its unit nor its rate, so it needs `--units`, and a frame column needs
//! `--data-fps`. Without `--columns`, a header whose names are exactly `id`, `x`, `y` and `time`,
//! `t` or `frame` (ignoring case; `z`, `height` optional) is used as is; otherwise `--columns`.

use std::io::BufRead;

use super::fields;
use super::lines::Lines;
use super::rows::NO_ROWS;
use super::split::{Delimiter, guess_delimiter, split};
use super::text_rows::{DataLines, row_per_line};
use super::{Columns, ReadOptions, Row, TrajectoryError};

/// How a row's time is given.
#[derive(Debug, Clone, Copy)]
enum Clock {
    Seconds(usize),
    Frames(usize, f64),
}

/// How a line of the table becomes a row, as settled by its first line.
struct Layout {
    delimiter: Delimiter,
    columns: Columns,
    clock: Clock,
    count: usize,
    metres_per_unit: f64,
    /// The current line's fields, kept to reuse their room.
    fields: Vec<String>,
}

/// The rows of a generic CSV, in file order.
pub struct CsvRows<R> {
    lines: DataLines<R>,
    layout: Layout,
}

/// Columns read from a header of the usual names, if it has them.
fn columns_from_names(header: &[String]) -> Option<Columns> {
    let find = |names: &[&str]| {
        header
            .iter()
            .position(|h| names.iter().any(|n| h.eq_ignore_ascii_case(n)))
    };
    let time = find(&["time", "t"]);
    let frame = find(&["frame"]);
    Some(Columns {
        id: find(&["id"])?,
        time,
        frame: if time.is_some() { None } else { Some(frame?) },
        x: find(&["x"])?,
        y: find(&["y"])?,
        z: find(&["z"]),
        height: find(&["height"]),
        names: None,
    })
}

impl<R: BufRead> CsvRows<R> {
    /// Reads the first line (header or data) and settles columns, unit and clock.
    pub fn open(file: &str, reader: R, options: &ReadOptions) -> Result<Self, TrajectoryError> {
        let mut lines = Lines::new(file, reader);
        lines.expect_data(NO_ROWS)?;
        let delimiter = guess_delimiter(lines.text());
        let mut fields = Vec::new();
        split(lines.text(), delimiter, &mut fields).map_err(|e| lines.error(e))?;
        let has_header = fields.iter().any(|f| f.trim().parse::<f64>().is_err());
        let header = has_header.then_some(fields.as_slice());
        let columns = match &options.columns {
            Some(c) => c.resolve(header).map_err(|e| lines.error(e))?,
            None => header.and_then(columns_from_names).ok_or_else(|| {
                TrajectoryError::file(
                    file,
                    "which column is what? give --columns (e.g. id=0,time=1,x=2,y=3)",
                )
            })?,
        };
        let count = fields.len();
        if columns.max_index() >= count {
            return Err(lines.error(format!(
                "column {} is beyond the {count} fields of this line",
                columns.max_index()
            )));
        }
        let clock = match (columns.time, columns.frame, options.data_fps, options.units) {
            (None, Some(_), None, None) => {
                return Err(TrajectoryError::file(
                    file,
                    "a CSV states no unit and its frames no rate: give --units and --data-fps",
                ));
            }
            (None, Some(_), None, _) => {
                return Err(TrajectoryError::file(
                    file,
                    "the frame column needs a rate: give --data-fps (or a time= column)",
                ));
            }
            (Some(t), _, _, _) => Clock::Seconds(t),
            (None, Some(f), Some(fps), _) => Clock::Frames(
                f,
                fields::frame_rate(fps).map_err(|e| TrajectoryError::file(file, e))?,
            ),
            (None, None, _, _) => {
                return Err(TrajectoryError::file(
                    file,
                    "give a time= or frame= column in --columns",
                ));
            }
        };
        let units = options.units.ok_or_else(|| {
            TrajectoryError::file(file, "a CSV states no unit: give --units (m, cm or mm)")
        })?;
        let layout = Layout {
            delimiter,
            columns,
            clock,
            count,
            metres_per_unit: units.metres_per_unit(),
            fields,
        };
        Ok(Self {
            lines: DataLines::new(lines, !has_header),
            layout,
        })
    }

    /// The frame rate, for a table of frames.
    pub fn frame_rate(&self) -> Option<f64> {
        match self.layout.clock {
            Clock::Frames(_, fps) => Some(fps),
            Clock::Seconds(_) => None,
        }
    }
}

impl Layout {
    /// The row on the current line.
    fn parse(&mut self, line: &Lines<impl BufRead>) -> Result<Row, String> {
        split(line.text(), self.delimiter, &mut self.fields)?;
        let (c, f) = (&self.columns, &self.fields);
        fields::field_count(f.len(), self.count, "the first line")?;
        let id = fields::id(&f[c.id])?;
        let time = match self.clock {
            Clock::Seconds(t) => fields::seconds("time", &f[t], 1.0)?,
            Clock::Frames(i, fps) => fields::frame(&f[i])? as f64 / fps,
        };
        let x = fields::metres("x", &f[c.x], self.metres_per_unit)?;
        let y = fields::metres("y", &f[c.y], self.metres_per_unit)?;
        if let Some(z) = c.z {
            fields::metres("z", &f[z], self.metres_per_unit)?;
        }
        let height = c
            .height
            .map(|h| fields::height("height", &f[h], self.metres_per_unit))
            .transpose()?;
        Ok(Row {
            id,
            time,
            position: [x, y],
            height,
        })
    }
}

row_per_line!(CsvRows);

#[cfg(test)]
mod tests {
    use super::super::{ReadOptions, Units};
    use super::CsvRows;

    fn options(columns: Option<&str>, units: Option<Units>, fps: Option<f64>) -> ReadOptions {
        ReadOptions {
            columns: columns.map(|c| c.parse().unwrap()),
            units,
            data_fps: fps,
            ..ReadOptions::default()
        }
    }

    #[test]
    fn header_names_indices_and_frames() {
        let text = "ped;t;x;y;h\n4;0.5;100;200;175\n";
        let o = options(
            Some("id=ped,time=t,x=x,y=y,height=h"),
            Some(Units::Millimetres),
            None,
        );
        let row = CsvRows::open("c", text.as_bytes(), &o)
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(
            (row.id, row.time, row.position, row.height),
            (4, 0.5, [0.1, 0.2], Some(0.175))
        );
        let text = "3,10,1.5,2.5\n3,11,1.6,2.5\n";
        let o = options(
            Some("id=0,frame=1,x=2,y=3"),
            Some(Units::Metres),
            Some(10.0),
        );
        let rows: Vec<_> = CsvRows::open("c", text.as_bytes(), &o)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            (rows[0].time, rows[1].time, rows[1].position),
            (1.0, 1.1, [1.6, 2.5])
        );
        let text = "ID,Frame,X,Y\n1,0,0,0\n";
        let rows = CsvRows::open(
            "c",
            text.as_bytes(),
            &options(None, Some(Units::Metres), Some(25.0)),
        )
        .unwrap();
        assert_eq!(rows.frame_rate(), Some(25.0));
    }
}
