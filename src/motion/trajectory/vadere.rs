//! Vadere's foot-step output (`postvis.traj`, Vadere 2.0 and later): a `#IDXCOL=...` comment,
//! a header `pedestrianId simTime endTime-PID1 startX-PID1 startY-PID1 endX-PID1 endY-PID1
//! targetId-PID2` (the `-PIDn` suffix names the processor that wrote the column), then one row
//! per foot step, sorted by start time, in metres and seconds.
//!
//! Each step gives a sample at its start (`simTime`, `startX/Y`) and one at its end (`endTime`,
//! `endX/Y`). A step starts where and when the pedestrian's previous step ended (checked on the
//! shared bottleneck file: 473 of 473 step pairs coincide exactly), so a start at the same time
//! as the previous end is not repeated; a zero-length step keeps only its start. Without the
//! `end*` columns (PedPy reads only the starts) only starts are taken.

use std::collections::HashMap;
use std::io::BufRead;

use super::fields;
use super::lines::Lines;
use super::text_rows::{DataLines, row_source_from_lines};
use super::{Row, TrajectoryError, Units};

/// Where the columns are.
#[derive(Debug, Clone, Copy)]
struct Layout {
    count: usize,
    header_line: u64,
    id: usize,
    start_time: usize,
    start_x: usize,
    start_y: usize,
    end: Option<[usize; 3]>,
}

impl Layout {
    /// Reads the header row's names: the part before the first `-` is the column's name.
    fn from_header(names: &[&str], header_line: u64) -> Result<Self, String> {
        let find = |wanted: &str| -> Result<Option<usize>, String> {
            let mut hits = names
                .iter()
                .enumerate()
                .filter(|(_, n)| n.split('-').next() == Some(wanted));
            let first = hits.next().map(|(i, _)| i);
            if hits.next().is_some() {
                return Err(format!("the header has two {wanted} columns"));
            }
            Ok(first)
        };
        let need = |wanted: &str| {
            find(wanted)?.ok_or_else(|| format!("the header has no {wanted} column (a Vadere 2 foot-step file has pedestrianId simTime startX startY)"))
        };
        let end = match (find("endTime")?, find("endX")?, find("endY")?) {
            (Some(t), Some(x), Some(y)) => Some([t, x, y]),
            _ => None,
        };
        Ok(Self {
            count: names.len(),
            header_line,
            id: need("pedestrianId")?,
            start_time: need("simTime")?,
            start_x: need("startX")?,
            start_y: need("startY")?,
            end,
        })
    }
}

/// How a line becomes samples: the columns, the scale, and what the previous steps ended on.
struct Steps {
    layout: Layout,
    metres_per_unit: f64,
    /// Each pedestrian's last step end time, to drop the next step's coinciding start.
    last_end: HashMap<u64, f64>,
}

/// The samples of a Vadere `.traj` file, in file order: each step's start, then its end.
pub struct VadereRows<R> {
    lines: DataLines<R>,
    steps: Steps,
    /// The end of the step whose start was yielded last, yielded next.
    pending: Option<Row>,
}

impl<R: BufRead> VadereRows<R> {
    /// Reads up to the header row; `units` is metres for any file Vadere wrote.
    pub fn open(file: &str, reader: R, units: Units) -> Result<Self, TrajectoryError> {
        let mut lines = Lines::new(file, reader);
        lines.expect_data("no header row: the file is empty")?;
        let names: Vec<&str> = lines.text().split_whitespace().collect();
        let layout = Layout::from_header(&names, lines.number()).map_err(|e| lines.error(e))?;
        let steps = Steps {
            layout,
            metres_per_unit: units.metres_per_unit(),
            last_end: HashMap::new(),
        };
        Ok(Self {
            lines: DataLines::new(lines, false),
            steps,
            pending: None,
        })
    }
}

impl Steps {
    /// Parses the current line into its start sample and, if kept, its end sample.
    fn parse(&mut self, line: &Lines<impl BufRead>) -> Result<(Option<Row>, Option<Row>), String> {
        let l = self.layout;
        let f: Vec<&str> = line.text().split_whitespace().collect();
        let header = l.header_line;
        fields::field_count(
            f.len(),
            l.count,
            format_args!("the header on line {header}"),
        )?;
        let scale = self.metres_per_unit;
        let id = fields::id(f[l.id])?;
        let time = fields::seconds("simTime", f[l.start_time], 1.0)?;
        let position = [
            fields::metres("startX", f[l.start_x], scale)?,
            fields::metres("startY", f[l.start_y], scale)?,
        ];
        let start = Row {
            id,
            time,
            position,
            height: None,
        };
        let Some([t, x, y]) = l.end else {
            return Ok((Some(start), None));
        };
        let end_time = fields::seconds("endTime", f[t], 1.0)?;
        let end_position = [
            fields::metres("endX", f[x], scale)?,
            fields::metres("endY", f[y], scale)?,
        ];
        let start = (self.last_end.get(&id) != Some(&time)).then_some(start);
        if end_time == time {
            return Ok((start, None));
        }
        self.last_end.insert(id, end_time);
        Ok((
            start,
            Some(Row {
                id,
                time: end_time,
                position: end_position,
                height: None,
            }),
        ))
    }
}

impl<R: BufRead> Iterator for VadereRows<R> {
    type Item = Result<Row, TrajectoryError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(end) = self.pending.take() {
            return Some(Ok(end));
        }
        loop {
            match self.lines.next_row(|line| self.steps.parse(line))? {
                Ok((Some(start), end)) => {
                    self.pending = end;
                    return Some(Ok(start));
                }
                Ok((None, Some(end))) => return Some(Ok(end)),
                Ok((None, None)) => {}
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

row_source_from_lines!(VadereRows);

#[cfg(test)]
mod tests {
    use super::super::Units;
    use super::VadereRows;

    #[test]
    fn starts_and_ends_without_repeats() {
        let text = "#IDXCOL=2,DATACOL=6,SEP=' '\npedestrianId simTime endTime-PID1 startX-PID1 startY-PID1 endX-PID1 endY-PID1 targetId-PID2\n\
                    1 0.4 1.0 2.0 7.0 2.5 6.5 8\n2 0.4 0.9 4.0 7.0 4.0 6.0 8\n1 1.0 1.6 2.5 6.5 3.0 6.0 8\n1 1.6 1.6 3.0 6.0 3.0 6.0 8\n";
        let rows: Vec<_> = VadereRows::open("v", text.as_bytes(), Units::Metres)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let seen: Vec<(u64, f64, [f64; 2])> =
            rows.iter().map(|r| (r.id, r.time, r.position)).collect();
        assert_eq!(
            seen,
            [
                (1, 0.4, [2.0, 7.0]),
                (1, 1.0, [2.5, 6.5]),
                (2, 0.4, [4.0, 7.0]),
                (2, 0.9, [4.0, 6.0]),
                (1, 1.6, [3.0, 6.0])
            ]
        );
        let only_starts = "pedestrianId simTime startX startY\n3 0.5 1 2\n3 0.9 1.5 2\n";
        let rows: Vec<_> = VadereRows::open("v", only_starts.as_bytes(), Units::Metres)
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(rows.len(), 2);
    }
}
