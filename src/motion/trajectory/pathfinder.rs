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
use super::rows::RowSource;
use super::split::{Delimiter, split};
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

/// Where the needed columns are.
#[derive(Debug, Clone, Copy)]
struct Layout {
    count: usize,
    t: usize,
    id: usize,
    x: usize,
    y: usize,
}

/// The rows of a Pathfinder CSV, in file order.
pub struct PathfinderRows<R> {
    lines: Lines<R>,
    layout: Layout,
    metres_per_unit: f64,
    seconds_per_unit: f64,
    fields: Vec<String>,
    pending: bool,
    done: bool,
}

impl<R: BufRead> PathfinderRows<R> {
    /// Reads the header row and the units row.
    pub fn open(file: &str, reader: R, options: &ReadOptions) -> Result<Self, TrajectoryError> {
        let mut lines = Lines::new(file, reader);
        if !lines.advance_to_data()? {
            return Err(TrajectoryError::file(
                file,
                "no header row: the file is empty",
            ));
        }
        let mut names = Vec::new();
        split(lines.text(), Delimiter::Char(','), &mut names).map_err(|e| lines.error(e))?;
        let find = |name: &str| {
            names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| lines.error(format!("the header has no '{name}' column")))
        };
        let layout = Layout {
            count: names.len(),
            t: find("t")?,
            id: find("id")?,
            x: find("x")?,
            y: find("y")?,
        };
        let mut fields = Vec::new();
        if !lines.advance_to_data()? {
            return Err(TrajectoryError::file(
                file,
                "no pedestrians: the file has no data rows",
            ));
        }
        split(lines.text(), Delimiter::Char(','), &mut fields).map_err(|e| lines.error(e))?;
        let is_units_row = fields
            .get(layout.t)
            .is_some_and(|t| t.trim().parse::<f64>().is_err());
        let (mut metres_per_unit, mut seconds_per_unit) = (None, 1.0);
        if is_units_row {
            if fields.len() != layout.count {
                return Err(lines.error(format!(
                    "the units row has {} fields, the header {}",
                    fields.len(),
                    layout.count
                )));
            }
            let (ux, uy, ut) = (&fields[layout.x], &fields[layout.y], &fields[layout.t]);
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
        Ok(Self {
            lines,
            layout,
            metres_per_unit,
            seconds_per_unit,
            fields,
            pending: !is_units_row,
            done: false,
        })
    }

    fn parse(&mut self) -> Result<Row, String> {
        split(self.lines.text(), Delimiter::Char(','), &mut self.fields)?;
        let (l, f) = (self.layout, &self.fields);
        if f.len() != l.count {
            return Err(format!(
                "{} fields, expected {} like the header",
                f.len(),
                l.count
            ));
        }
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

impl<R: BufRead> Iterator for PathfinderRows<R> {
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

impl<R: BufRead> RowSource for PathfinderRows<R> {
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
