//! Files a pass's rows into a [`TrackStore`](super::TrackStore): the index of pedestrians,
//! the chunks, the copies across gaps, and the spill once memory holds enough.

use std::collections::{BTreeMap, HashMap};

use super::chunks::{Chunk, StoredSample, TrackSummary, chunk_of};
use super::spill::Spill;
use crate::motion::trajectory::Row;
use crate::motion::trajectory::budget::Budget;
use crate::motion::trajectory::fields::thousands;
use crate::motion::trajectory::rows::{NO_ROWS, RowSink, check_order, check_row};

/// Bytes of samples held in memory before they go to the spill file (at most; a quarter of
/// the budget when that is smaller).
const HOLD_BYTES: u64 = 16 << 20;
/// Approximate bytes one pedestrian takes in the index while reading (its summary, its last
/// position, its heights' sum, its id's slot in the map).
const PED_BYTES: u64 = 128;
/// Approximate bytes one chunk takes in the index.
const CHUNK_BYTES: u64 = 96;
/// Heights outside this range (metres) are tracking errors, not people.
const PLAUSIBLE_HEIGHT: (f32, f32) = (0.3, 2.8);

/// What a finished pass hands the store.
#[derive(Debug, Default)]
pub(crate) struct StoreParts {
    pub(crate) summaries: Vec<TrackSummary>,
    pub(crate) chunks: BTreeMap<i64, Chunk>,
    pub(crate) spill: Option<Spill>,
    pub(crate) samples: u64,
    pub(crate) bounds: ([f64; 2], [f64; 2]),
    /// The budget the store was filed within (`None`: tracks already in memory).
    pub(crate) budget: Option<Budget>,
}

impl StoreParts {
    /// The bounds grown to take in `points`.
    pub(crate) fn include(&self, points: impl Iterator<Item = [f64; 2]>) -> ([f64; 2], [f64; 2]) {
        let empty = self.summaries.is_empty();
        let mut bounds = self.bounds;
        for (k, p) in points.enumerate() {
            bounds = if empty && k == 0 {
                (p, p)
            } else {
                grown(bounds, p)
            };
        }
        bounds
    }
}

fn grown((lo, hi): ([f64; 2], [f64; 2]), p: [f64; 2]) -> ([f64; 2], [f64; 2]) {
    (
        [lo[0].min(p[0]), lo[1].min(p[1])],
        [hi[0].max(p[0]), hi[1].max(p[1])],
    )
}

/// See the module documentation.
pub(crate) struct StoreBuilder {
    ids: HashMap<u64, u32>,
    parts: StoreParts,
    last_position: Vec<[f64; 2]>,
    heights: Vec<(f64, u32)>,
    /// Records in memory, and how many may be before they are spilled.
    held: u64,
    hold: u64,
    /// `None`: everything in memory, without a limit (tracks already in memory).
    budget: Option<Budget>,
    frame_rate: Option<f64>,
}

impl StoreBuilder {
    /// A builder whose index must fit `budget` and which holds at most a quarter of it (and
    /// at most 16 MiB) of samples in memory, spilling the rest.
    pub(crate) fn new(budget: Budget) -> Self {
        let hold = HOLD_BYTES.min(budget.limit() / 4) / size_of::<StoredSample>() as u64;
        Self {
            hold: hold.max(1),
            budget: Some(budget),
            ..Self::in_memory()
        }
    }

    /// A builder keeping everything in memory.
    pub(crate) fn in_memory() -> Self {
        Self {
            ids: HashMap::new(),
            parts: StoreParts::default(),
            last_position: Vec::new(),
            heights: Vec::new(),
            held: 0,
            hold: u64::MAX,
            budget: None,
            frame_rate: None,
        }
    }

    /// [`RowSink::set_frame_rate`], for callers outside a pass.
    pub(crate) fn set_frame_rate_of(&mut self, frame_rate: Option<f64>) {
        self.frame_rate = frame_rate;
    }

    /// Refuses an index grown past the budget.
    fn check_index(&self, peds: u64) -> Result<(), String> {
        let Some(budget) = self.budget else {
            return Ok(());
        };
        let need = peds
            .saturating_mul(PED_BYTES)
            .saturating_add((self.parts.chunks.len() as u64 + 2).saturating_mul(CHUNK_BYTES));
        if need <= budget.limit() {
            return Ok(());
        }
        Err(format!(
            "{} pedestrians over {} chunks of time need {:.1} MB to index, over the budget of \
             {:.1} MB (--max-memory)",
            thousands(peds),
            thousands(self.parts.chunks.len() as u64),
            need as f64 / 1e6,
            budget.limit() as f64 / 1e6
        ))
    }

    /// Adds one row: into its chunk, with copies across a gap from the pedestrian's last.
    pub(crate) fn take(&mut self, row: Row) -> Result<(), String> {
        check_row(&row)?;
        let p = match self.ids.get(&row.id) {
            Some(&p) => {
                let last = self.parts.summaries[p as usize].end;
                check_order(row.id, row.time, last, self.frame_rate)?;
                p
            }
            None => {
                let p = self.parts.summaries.len();
                self.check_index(p as u64 + 1)?;
                let p = u32::try_from(p).map_err(|_| "more than 4 billion pedestrians")?;
                self.ids.insert(row.id, p);
                self.parts.summaries.push(TrackSummary {
                    id: row.id,
                    start: row.time,
                    end: row.time,
                    samples: 0,
                    height: None,
                });
                self.last_position.push(row.position);
                self.heights.push((0.0, 0));
                p
            }
        };
        let record = StoredSample {
            time: row.time,
            position: row.position,
            ped: p,
            pad: 0,
        };
        let summary = self.parts.summaries[p as usize];
        let b = chunk_of(row.time);
        if summary.samples > 0 {
            let a = chunk_of(summary.end);
            if a < b {
                // Each side of the gap knows the other end of the segment across it.
                self.file(a, record)?;
                let before = StoredSample {
                    time: summary.end,
                    position: self.last_position[p as usize],
                    ..record
                };
                self.file(b, before)?;
            }
        }
        self.file(b, record)?;
        let summary = &mut self.parts.summaries[p as usize];
        summary.end = row.time;
        summary.samples += 1;
        self.last_position[p as usize] = row.position;
        if let Some(h) = row
            .height
            .filter(|h| (PLAUSIBLE_HEIGHT.0..=PLAUSIBLE_HEIGHT.1).contains(h))
        {
            let (sum, n) = &mut self.heights[p as usize];
            *sum += f64::from(h);
            *n += 1;
        }
        self.parts.bounds = if self.parts.samples == 0 {
            (row.position, row.position)
        } else {
            grown(self.parts.bounds, row.position)
        };
        self.parts.samples += 1;
        if self.held > self.hold {
            self.flush()?;
        }
        Ok(())
    }

    /// Adds a record to chunk `key` in memory.
    fn file(&mut self, key: i64, record: StoredSample) -> Result<(), String> {
        if !self.parts.chunks.contains_key(&key) {
            self.check_index(self.parts.summaries.len() as u64)?;
        }
        self.parts.chunks.entry(key).or_default().held.push(record);
        self.held += 1;
        Ok(())
    }

    /// Moves every record held in memory to the spill file.
    fn flush(&mut self) -> Result<(), String> {
        if self.parts.spill.is_none() {
            let dir = std::env::temp_dir();
            let spill = Spill::create(&dir).map_err(|e| {
                format!(
                    "cannot make a temporary file for its samples in {} (set TMPDIR): {e}",
                    dir.display()
                )
            })?;
            self.parts.spill = Some(spill);
        }
        let Some(spill) = self.parts.spill.as_mut() else {
            return Ok(());
        };
        for chunk in self.parts.chunks.values_mut() {
            if chunk.held.is_empty() {
                continue;
            }
            let block = spill
                .append(&chunk.held)
                .map_err(|e| format!("cannot write the temporary copy of its samples: {e}"))?;
            chunk.blocks.push(block);
            chunk.held = Vec::new();
        }
        self.held = 0;
        Ok(())
    }

    /// The parts of a store, heights averaged; an error when no row came.
    pub(crate) fn finish(self) -> Result<StoreParts, String> {
        if self.parts.summaries.is_empty() {
            return Err(NO_ROWS.to_owned());
        }
        Ok(self.finish_or_empty())
    }

    /// As [`StoreBuilder::finish`], an empty store when no row came. Once spilling, the rest
    /// is spilled too, so that memory holds only the index.
    pub(crate) fn finish_or_empty(mut self) -> StoreParts {
        if self.parts.spill.is_some() && self.flush().is_err() {
            // Whatever could not be written stays in memory, where it is read from as well.
        }
        for (summary, &(sum, n)) in self.parts.summaries.iter_mut().zip(&self.heights) {
            summary.height = (n > 0).then(|| (sum / f64::from(n)) as f32);
        }
        self.parts.budget = self.budget;
        self.parts
    }
}

impl RowSink for StoreBuilder {
    fn set_frame_rate(&mut self, frame_rate: Option<f64>) {
        self.frame_rate = frame_rate;
    }

    fn push(&mut self, row: Row) -> Result<(), String> {
        self.take(row)
    }
}
