//! ETH/UCY as OpenTraj distributes it: `frame id x y` (tab- or space-separated, metres), or the
//! original 8-column `obsmat.txt`: `frame id pos_x pos_z pos_y v_x v_z v_y`, whose ground
//! plane is (pos_x, pos_y) and whose pos_z is unused (the EWAP README).
//!
//! Units: metres, always (the datasets' READMEs: positions come from a homography in metres).
//!
//! Frame rate: `--data-fps` if given. Otherwise the family's own convention, the one OpenTraj's
//! `load_eth` applies: every ETH/UCY sequence is annotated 2.5 times a second and numbers the
//! video's frames, so the numbering rate is 2.5 x the annotation step. The step is taken as the
//! greatest common divisor of all frame-number differences in the file (a first pass reading only
//! the frame column), which, unlike OpenTraj's first difference, is not fooled by frames in which
//! nobody was annotated. `biwi_eth` steps by 10: 25 fps, time = frame / 25. A file whose rows all
//! share one frame has no step and needs `--data-fps`.

use std::io::BufRead;

use super::fields;
use super::lines::Lines;
use super::text_rows::{DataLines, row_per_line};
use super::{Row, TrajectoryError, Units};

/// Annotations per second in every ETH/UCY sequence (OpenTraj's `loader_eth`).
pub const ANNOTATIONS_PER_SECOND: f64 = 2.5;

/// The frame rate the ETH/UCY convention gives a file: 2.5 x the GCD of its frame steps.
pub fn frame_rate_from_numbering<R: BufRead>(
    file: &str,
    reader: R,
) -> Result<f64, TrajectoryError> {
    let mut lines = Lines::new(file, reader);
    let mut first = None;
    let mut step: u64 = 0;
    let mut columns = None;
    while lines.advance_to_data()? {
        let f: Vec<&str> = lines.text().split_whitespace().collect();
        y_column(f.len(), &mut columns, lines.number()).map_err(|e| lines.error(e))?;
        let frame = fields::frame(f[0]).map_err(|e| lines.error(e))?;
        let first = *first.get_or_insert(frame);
        step = gcd(step, frame.abs_diff(first));
    }
    if first.is_none() {
        return Err(TrajectoryError::file(
            file,
            "no pedestrians: the file has no data rows",
        ));
    }
    if step == 0 {
        return Err(TrajectoryError::file(
            file,
            "every row is in the same frame, so the frame step tells no rate: give --data-fps",
        ));
    }
    fields::frame_rate(step as f64 * ANNOTATIONS_PER_SECOND)
        .map_err(|e| TrajectoryError::file(file, e))
}

/// The y column for a line of `count` fields, checking the count against the file's first
/// (`columns`: the first count and its line, set on the first call).
fn y_column(count: usize, columns: &mut Option<(usize, u64)>, line: u64) -> Result<usize, String> {
    let (first, first_line) = *columns.get_or_insert((count, line));
    fields::field_count(count, first, format_args!("line {first_line}"))?;
    match count {
        4 => Ok(3),
        8 => Ok(4),
        n => Err(format!(
            "{n} fields, expected 4 (frame id x y) or 8 (obsmat.txt)"
        )),
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// How a line becomes a row: the rate and scale given, and the first line's field count.
struct Layout {
    frame_rate: f64,
    metres_per_unit: f64,
    /// The first line's field count and number, once read (see [`y_column`]).
    columns: Option<(usize, u64)>,
}

/// The rows of an ETH/UCY file, in file order.
pub struct EthUcyRows<R> {
    lines: DataLines<R>,
    layout: Layout,
}

impl<R: BufRead> EthUcyRows<R> {
    /// Rows of `reader` timed at `frame_rate` (see [`frame_rate_from_numbering`]), coordinates
    /// in `units` (metres for the real datasets).
    pub fn open(
        file: &str,
        reader: R,
        frame_rate: f64,
        units: Units,
    ) -> Result<Self, TrajectoryError> {
        let frame_rate =
            fields::frame_rate(frame_rate).map_err(|e| TrajectoryError::file(file, e))?;
        let layout = Layout {
            frame_rate,
            metres_per_unit: units.metres_per_unit(),
            columns: None,
        };
        Ok(Self {
            lines: DataLines::new(Lines::new(file, reader), false),
            layout,
        })
    }

    /// The frame rate used.
    pub fn frame_rate(&self) -> f64 {
        self.layout.frame_rate
    }
}

impl Layout {
    /// The row on the current line.
    fn parse(&mut self, line: &Lines<impl BufRead>) -> Result<Row, String> {
        let f: Vec<&str> = line.text().split_whitespace().collect();
        let y_column = y_column(f.len(), &mut self.columns, line.number())?;
        let frame = fields::frame(f[0])?;
        let id = fields::id(f[1])?;
        let x = fields::metres("x", f[2], self.metres_per_unit)?;
        let y = fields::metres("y", f[y_column], self.metres_per_unit)?;
        Ok(Row {
            id,
            time: frame as f64 / self.frame_rate,
            position: [x, y],
            height: None,
        })
    }
}

row_per_line!(EthUcyRows);

#[cfg(test)]
mod tests {
    use super::super::Units;
    use super::{EthUcyRows, frame_rate_from_numbering};

    #[test]
    fn rate_from_the_frame_step() {
        let text = "780.0\t1.0\t8.46\t3.59\n800.0\t1.0\t10.67\t3.99\n790.0\t2.0\t1\t2\n";
        assert_eq!(frame_rate_from_numbering("e", text.as_bytes()), Ok(25.0));
        let e = frame_rate_from_numbering("e", &b"10 1 0 0\n10 2 0 0\n"[..]).unwrap_err();
        assert!(e.to_string().contains("--data-fps"));
    }

    #[test]
    fn four_and_eight_columns() {
        let rows: Vec<_> = EthUcyRows::open(
            "e",
            &b"780\t1\t8.46\t3.59\n790 1 9.57 3.79\n"[..],
            25.0,
            Units::Metres,
        )
        .unwrap()
        .map(Result::unwrap)
        .collect();
        assert_eq!((rows[0].time, rows[0].position), (31.2, [8.46, 3.59]));
        assert_eq!(rows[1].time, 31.6);
        let obsmat = "1.0 2.0 3.5 0.0 -4.25 0.1 0.0 0.2\n";
        let row = EthUcyRows::open("o", obsmat.as_bytes(), 25.0, Units::Metres)
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!((row.id, row.time, row.position), (2, 0.04, [3.5, -4.25]));
    }
}
