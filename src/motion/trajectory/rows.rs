//! The streaming layer: every text reader is an iterator of [`Row`]s in file order, and
//! [`feed`] hands them to a [`RowSink`]: whole tracks under a memory budget, or a playback's
//! store.

use std::collections::HashMap;

use super::budget::Budget;
use super::{Row, Track, TrajectoryError};

/// Why a file gave no tracks: said when it ends before its first row, and when a pass finds none.
pub(crate) const NO_ROWS: &str = "no pedestrians: the file has no data rows";

/// An iterator of a file's rows in file order (pedestrians may interleave), which can say where
/// in the file the last row came from.
pub trait RowSource: Iterator<Item = Result<Row, TrajectoryError>> {
    /// The file's name, as given to the reader.
    fn file(&self) -> &str;
    /// Where the last row yielded came from (`"line 12"`), for messages about it.
    fn location(&self) -> Option<String>;
}

/// Where rows go: whole tracks ([`TrackBuilder`]) or a playback's store
/// ([`StoreBuilder`](super::store::StoreBuilder)). A refusal is a message; the caller adds the
/// file and the place.
pub(crate) trait RowSink {
    /// The rate of the file's frame numbering, once the reader knows it: messages about times
    /// then name frames, as the file has them.
    fn set_frame_rate(&mut self, frame_rate: Option<f64>);
    /// Takes one row.
    fn push(&mut self, row: Row) -> Result<(), String>;
}

/// How a message names a time: `frame 40` (a file counting frames at `frame_rate`) or
/// `time 3.5 s`.
fn when(time: f64, frame_rate: Option<f64>) -> String {
    match frame_rate {
        Some(fps) => format!("frame {}", (time * fps).round()),
        None => format!("time {time} s"),
    }
}

/// Refuses a row whose time is out of range or whose position is not finite, whatever made
/// them (times made from frames and a rate are checked here too).
pub(crate) fn check_row(row: &Row) -> Result<(), String> {
    if !(row.time.is_finite() && row.time.abs() <= super::fields::MAX_SECONDS) {
        return Err(format!(
            "pedestrian {}: time {} s is out of range (at most {:e} s)",
            row.id,
            row.time,
            super::fields::MAX_SECONDS
        ));
    }
    if !(row.position.iter().all(|v| v.is_finite())) {
        return Err(format!("pedestrian {}: a position is not finite", row.id));
    }
    Ok(())
}

/// Refuses pedestrian `id`'s sample at `time` after one at `last`: times strictly increase
/// within a track.
pub(crate) fn check_order(
    id: u64,
    time: f64,
    last: f64,
    frame_rate: Option<f64>,
) -> Result<(), String> {
    if time == last {
        return Err(format!("pedestrian {id}: {} twice", when(time, frame_rate)));
    }
    if time < last {
        let (now, before) = (when(time, frame_rate), when(last, frame_rate));
        let before = before.trim_start_matches("time ").to_owned();
        return Err(format!("pedestrian {id}: {now} after {before}"));
    }
    Ok(())
}

/// Groups rows into tracks, refusing times that do not increase and growth over the budget.
pub(crate) struct TrackBuilder {
    index: HashMap<u64, usize>,
    tracks: Vec<Track>,
    samples: u64,
    budget: Budget,
    frame_rate: Option<f64>,
}

impl TrackBuilder {
    /// A builder charging `budget`; `frame_rate` (if the file counts frames) phrases time errors
    /// in frames, as the file has them.
    pub(crate) fn new(budget: Budget, frame_rate: Option<f64>) -> Self {
        Self {
            index: HashMap::new(),
            tracks: Vec::new(),
            samples: 0,
            budget,
            frame_rate,
        }
    }

    /// Adds one row to its pedestrian's track.
    pub(crate) fn push(&mut self, row: Row) -> Result<(), String> {
        check_row(&row)?;
        let slot = match self.index.get(&row.id) {
            Some(&slot) => {
                self.budget
                    .check(self.samples + 1, self.tracks.len() as u64)?;
                slot
            }
            None => {
                self.budget
                    .check(self.samples + 1, self.tracks.len() as u64 + 1)?;
                self.tracks.push(Track {
                    id: row.id,
                    samples: Vec::new(),
                });
                self.index.insert(row.id, self.tracks.len() - 1);
                self.tracks.len() - 1
            }
        };
        if let Some(last) = self.tracks[slot].samples.last() {
            check_order(row.id, row.time, last.time, self.frame_rate)?;
        }
        let samples = &mut self.tracks[slot].samples;
        if samples.len() == samples.capacity() {
            // Grow by half rather than double, to keep the slack the budget does not see small.
            samples.reserve_exact((samples.len() / 2).max(4));
        }
        samples.push(super::Sample {
            time: row.time,
            position: row.position,
            height: row.height,
        });
        self.samples += 1;
        Ok(())
    }

    /// The tracks sorted by id; an error if there are none.
    pub(crate) fn finish(mut self) -> Result<Vec<Track>, String> {
        if self.tracks.is_empty() {
            return Err(NO_ROWS.to_owned());
        }
        self.tracks.sort_unstable_by_key(|t| t.id);
        Ok(self.tracks)
    }
}

impl RowSink for TrackBuilder {
    fn set_frame_rate(&mut self, frame_rate: Option<f64>) {
        self.frame_rate = frame_rate;
    }

    fn push(&mut self, row: Row) -> Result<(), String> {
        TrackBuilder::push(self, row)
    }
}

/// Feeds every row of `source` to `sink`, which learns the file's frame rate first.
pub(crate) fn feed(
    source: &mut dyn RowSource,
    sink: &mut dyn RowSink,
    frame_rate: Option<f64>,
) -> Result<(), TrajectoryError> {
    sink.set_frame_rate(frame_rate);
    while let Some(row) = source.next() {
        let row = row?;
        if let Err(message) = sink.push(row) {
            return Err(TrajectoryError {
                file: source.file().to_owned(),
                at: source.location(),
                message,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Budget, Row, TrackBuilder};

    fn row(id: u64, time: f64) -> Row {
        Row {
            id,
            time,
            position: [time, 0.0],
            height: None,
        }
    }

    #[test]
    fn groups_sorts_and_checks_order() {
        let mut b = TrackBuilder::new(Budget::new(1 << 20), Some(16.0));
        for r in [row(7, 1.0), row(3, 1.0), row(7, 2.0)] {
            b.push(r).unwrap();
        }
        assert_eq!(
            b.push(row(7, 1.0)).unwrap_err(),
            "pedestrian 7: frame 16 after frame 32"
        );
        assert_eq!(
            b.push(row(3, 1.0)).unwrap_err(),
            "pedestrian 3: frame 16 twice"
        );
        let tracks = b.finish().unwrap();
        assert_eq!(tracks.iter().map(|t| t.id).collect::<Vec<_>>(), [3, 7]);
        let mut b = TrackBuilder::new(Budget::new(1 << 20), None);
        b.push(row(1, 2.5)).unwrap();
        assert_eq!(
            b.push(row(1, 2.0)).unwrap_err(),
            "pedestrian 1: time 2 s after 2.5 s"
        );
        assert!(
            TrackBuilder::new(Budget::new(0), None)
                .push(row(1, 0.0))
                .unwrap_err()
                .contains("--max-memory")
        );
        assert!(TrackBuilder::new(Budget::new(1), None).finish().is_err());
    }
}
