//! Pathfinder's occupant CSV export: a quoted header row (`"t","id","name","active","x","y",
//! "z","v",...`), a units row (`"s","","","","m","m","m","m/s",...`), then one row per occupant
//! and output time. Columns are found by name: `t` (seconds), `id`, `x`, `y`.
//!
//! Units: the units row's entry for `x` and `y` (`m`, `cm`, `mm`, `ft`, `in`) converts to metres;
//! `t` may be `s` (or empty), `min` or `h`. A file without a units row needs `--units`, and
//! `--units` overrides the row. `z` is the floor's elevation, not a height: it is not read.
//!
//! `active`: 0 on an occupant's first row (t = 0, before it starts moving) and on its last row
//! (where it leaves through the exit), 1 in between — seen on every occupant of the shared file.
//! The position is valid on those rows (the start and the exit point), and PedPy's
//! `load_trajectory_from_pathfinder_csv` keeps them, so they are kept here too.
//!
//! Frame rate: none; Pathfinder writes times (its last rows may fall between output steps).

use std::io::BufRead;

use super::fields;
use super::lines::Lines;
use super::rows::NO_ROWS;
use super::split::{Delimiter, split};
use super::text_rows::{DataLines, row_per_line};
use super::{ReadOptions, Row, TrajectoryError};

/// Metres per unit for the length units Pathfinder writes.
fn metres_per(unit: &str) -> Option<f64> {
    match unit.trim().to_ascii_lowercase().as_str() {
        "m" => Some(1.0),
        "cm" => Some(0.01),
        "mm" => Some(0.001),
        "ft" => Some(0.3048),
        "in" => Some(0.0254),
        _ => None,
    }
}

/// Seconds per unit for the time units accepted.
fn seconds_per(unit: &str) -> Option<f64> {
    match unit.trim().to_ascii_lowercase().as_str() {
        "" | "s" | "sec" => Some(1.0),
        "min" => Some(60.0),
        "h" => Some(3600.0),
        _ => None,
    }
}

/// Where the header row puts the needed columns.
#[derive(Debug, Clone, Copy)]
struct Header {
    count: usize,
    t: usize,
    id: usize,
    x: usize,
    y: usize,
}

/// How a line of the file becomes a row: the columns, and the units of the units row.
struct Layout {
    header: Header,
    metres_per_unit: f64,
    seconds_per_unit: f64,
    /// The current line's fields, kept to reuse their room.
    fields: Vec<String>,
}

/// The rows of a Pathfinder CSV, in file order.
pub struct PathfinderRows<R> {
    lines: DataLines<R>,
    layout: Layout,
}

impl<R: BufRead> PathfinderRows<R> {
    /// Reads the header row and the units row.
    pub fn open(file: &str, reader: R, options: &ReadOptions) -> Result<Self, TrajectoryError> {
        let mut lines = Lines::new(file, reader);
        lines.expect_data("no header row: the file is empty")?;
        let mut names = Vec::new();
        split(lines.text(), Delimiter::Char(','), &mut names).map_err(|e| lines.error(e))?;
        let find = |name: &str| {
            names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| lines.error(format!("the header has no '{name}' column")))
        };
        let header = Header {
            count: names.len(),
            t: find("t")?,
            id: find("id")?,
            x: find("x")?,
            y: find("y")?,
        };
        let mut fields = Vec::new();
        lines.expect_data(NO_ROWS)?;
        split(lines.text(), Delimiter::Char(','), &mut fields).map_err(|e| lines.error(e))?;
        let is_units_row = fields
            .get(header.t)
            .is_some_and(|t| t.trim().parse::<f64>().is_err());
        let (mut metres_per_unit, mut seconds_per_unit) = (None, 1.0);
        if is_units_row {
            if fields.len() != header.count {
                return Err(lines.error(format!(
                    "the units row has {} fields, the header {}",
                    fields.len(),
                    header.count
                )));
            }
            let (ux, uy, ut) = (&fields[header.x], &fields[header.y], &fields[header.t]);
            if ux != uy {
                return Err(lines.error(format!("x is in '{ux}' but y in '{uy}'")));
            }
            seconds_per_unit = seconds_per(ut)
                .ok_or_else(|| lines.error(format!("t is in '{ut}', not s, min or h")))?;
            metres_per_unit = metres_per(ux);
            if metres_per_unit.is_none() && options.units.is_none() {
                return Err(lines.error(format!(
                    "x is in '{ux}', not m, cm, mm, ft or in: give --units"
                )));
            }
        }
        let metres_per_unit = match options.units {
            Some(units) => units.metres_per_unit(),
            None => metres_per_unit.ok_or_else(|| {
                TrajectoryError::file(file, "no units row after the header: give --units")
            })?,
        };
        let layout = Layout {
            header,
            metres_per_unit,
            seconds_per_unit,
            fields,
        };
        Ok(Self {
            lines: DataLines::new(lines, !is_units_row),
            layout,
        })
    }
}

impl Layout {
    /// The row on the current line.
    fn parse(&mut self, line: &Lines<impl BufRead>) -> Result<Row, String> {
        split(line.text(), Delimiter::Char(','), &mut self.fields)?;
        let (l, f) = (self.header, &self.fields);
        fields::field_count(f.len(), l.count, "the header")?;
        let time = fields::seconds("t", &f[l.t], self.seconds_per_unit)?;
        let id = fields::id(&f[l.id])?;
        let x = fields::metres("x", &f[l.x], self.metres_per_unit)?;
        let y = fields::metres("y", &f[l.y], self.metres_per_unit)?;
        Ok(Row {
            id,
            time,
            position: [x, y],
            height: None,
        })
    }
}

row_per_line!(PathfinderRows);

#[cfg(test)]
mod tests {
    use super::super::{ReadOptions, Units};
    use super::PathfinderRows;

    const HEADER: &str = "\"t\",\"id\",\"name\",\"active\",\"x\",\"y\",\"z\"\n";

    #[test]
    fn units_row_converts() {
        let text = format!(
            "{HEADER}\"s\",\"\",\"\",\"\",\"ft\",\"ft\",\"ft\"\n0.000000,0,\"00001\",0,10.0,-1.0,0.0\n1.0,0,\"00001\",1,11.0,-1.0,0.0\n"
        );
        let rows: Vec<_> = PathfinderRows::open("p.csv", text.as_bytes(), &ReadOptions::default())
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(rows.len(), 2);
        assert!((rows[0].position[0] - 3.048).abs() < 1e-12);
        assert_eq!(rows[1].time, 1.0);
    }

    #[test]
    fn no_units_row_needs_units() {
        let text = format!("{HEADER}0.5,3,\"x\",1,1.0,2.0,0\n");
        let e = PathfinderRows::open("p.csv", text.as_bytes(), &ReadOptions::default())
            .err()
            .unwrap();
        assert_eq!(
            e.to_string(),
            "p.csv: no units row after the header: give --units"
        );
        let options = ReadOptions {
            units: Some(Units::Centimetres),
            ..ReadOptions::default()
        };
        let row = PathfinderRows::open("p.csv", text.as_bytes(), &options)
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!((row.id, row.time, row.position), (3, 0.5, [0.01, 0.02]));
    }
}
