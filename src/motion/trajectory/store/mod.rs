//! A trajectory file as a playback reads it: an index of its pedestrians, and its samples
//! filed by chunk of file time, held in memory while they are few and otherwise spilled to a
//! temporary file. A playback then holds the chunks around the time it shows, so its memory
//! grows with the crowd present and the smoothing window, not with the file's duration, and a
//! seek reads the chunks around the new time.
//!
//! Chunk `k` holds the samples with `k * CHUNK_SECONDS <= time < (k + 1) * CHUNK_SECONDS`,
//! each pedestrian's in time order (pedestrians interleaved as the file gave them). Where a
//! pedestrian's consecutive samples fall in different chunks `a < b`, chunk `a` also holds a
//! copy of the later one and chunk `b` a copy of the earlier one, so that the chunks of a time
//! range say where everybody in them is at any time within it. A chunk strictly inside such a
//! gap holds nothing of that pedestrian: a reader arriving there by a seek looks back for the
//! chunk that does ([`TrackStore::keys`] in reverse).

mod builder;
mod chunks;
mod spill;

use std::collections::BTreeMap;
use std::ops::RangeBounds;
use std::path::{Path, PathBuf};

pub(crate) use builder::{StoreBuilder, StoreParts};
use chunks::Chunk;
pub use chunks::{CHUNK_SECONDS, StoredSample, TrackSummary, chunk_of};
use spill::Spill;

use super::budget::Budget;
use super::{Format, Geometry, Trajectories, TrajectoryError};

/// What the store says of the file it came from.
#[derive(Debug, Clone)]
pub(crate) struct StoreFile {
    pub(crate) file: PathBuf,
    pub(crate) format: Format,
    pub(crate) frame_rate: Option<f64>,
    pub(crate) geometry: Option<Geometry>,
}

/// See the module documentation.
#[derive(Debug)]
pub struct TrackStore {
    file: StoreFile,
    summaries: Vec<TrackSummary>,
    chunks: BTreeMap<i64, Chunk>,
    spill: Option<Spill>,
    samples: u64,
    bounds: ([f64; 2], [f64; 2]),
    budget: Option<Budget>,
}

impl TrackStore {
    pub(crate) fn new(file: StoreFile, parts: StoreParts) -> Self {
        Self {
            file,
            summaries: parts.summaries,
            chunks: parts.chunks,
            spill: parts.spill,
            samples: parts.samples,
            bounds: parts.bounds,
            budget: parts.budget,
        }
    }

    /// The store of a file read whole (everything in memory): for tracks made or read by
    /// other means.
    pub fn from_trajectories(t: &Trajectories) -> Self {
        let mut builder = StoreBuilder::in_memory();
        builder.set_frame_rate_of(t.frame_rate);
        for track in &t.tracks {
            for s in &track.samples {
                // The tracks were checked when read (or made so by their maker): a sample that
                // is not in order is skipped, as a path skips it.
                let _ = builder.take(super::Row {
                    id: track.id,
                    time: s.time,
                    position: s.position,
                    height: s.height,
                });
            }
        }
        let mut parts = builder.finish_or_empty();
        if let Some(g) = &t.geometry {
            parts.bounds = parts.include(g.points());
        }
        Self::new(
            StoreFile {
                file: t.file.clone(),
                format: t.format,
                frame_rate: t.frame_rate,
                geometry: t.geometry.clone(),
            },
            parts,
        )
    }

    /// The file read.
    pub fn file(&self) -> &Path {
        &self.file.file
    }

    /// Its format.
    pub fn format(&self) -> Format {
        self.file.format
    }

    /// The rate of the file's frame numbering, where it has one.
    pub fn frame_rate(&self) -> Option<f64> {
        self.file.frame_rate
    }

    /// The walkable area, where the file (or `--geometry`) gives one.
    pub fn geometry(&self) -> Option<&Geometry> {
        self.file.geometry.as_ref()
    }

    /// Every pedestrian, in the order the file first named them.
    pub fn summaries(&self) -> &[TrackSummary] {
        &self.summaries
    }

    /// The file's samples.
    pub fn sample_count(&self) -> u64 {
        self.samples
    }

    /// The earliest sample's time (0 with none).
    pub fn start(&self) -> f64 {
        let first = self.summaries.iter().map(|s| s.start);
        first.reduce(f64::min).unwrap_or(0.0)
    }

    /// The latest sample's time (0 with none).
    pub fn end(&self) -> f64 {
        let last = self.summaries.iter().map(|s| s.end);
        last.reduce(f64::max).unwrap_or(0.0)
    }

    /// The (min, max) corners of every sample and every geometry point.
    pub fn bounds(&self) -> ([f64; 2], [f64; 2]) {
        self.bounds
    }

    /// Bytes of samples on the temporary file (0: all in memory).
    pub fn spilled_bytes(&self) -> u64 {
        self.spill.as_ref().map_or(0, Spill::len)
    }

    /// The keys of the chunks within `range` that hold samples, in order.
    pub fn keys(&self, range: impl RangeBounds<i64>) -> impl DoubleEndedIterator<Item = i64> + '_ {
        self.chunks.range(range).map(|(&k, _)| k)
    }

    /// The most samples one chunk holds (copies across gaps included).
    pub fn largest_chunk(&self) -> usize {
        let count =
            |c: &Chunk| c.held.len() + c.blocks.iter().map(|b| b.count() as usize).sum::<usize>();
        self.chunks.values().map(count).max().unwrap_or(0)
    }

    /// Chunk `key`'s samples into `out` (emptied first; its room is kept between calls),
    /// each pedestrian's in time order.
    pub fn load(&self, key: i64, out: &mut Vec<StoredSample>) -> Result<(), TrajectoryError> {
        out.clear();
        let Some(chunk) = self.chunks.get(&key) else {
            return Ok(());
        };
        if let Some(spill) = &self.spill {
            for block in &chunk.blocks {
                spill.read(block, out).map_err(|e| {
                    TrajectoryError::file(
                        &self.file.file.display().to_string(),
                        format!("cannot read the temporary copy of its samples: {e}"),
                    )
                })?;
            }
        }
        out.extend_from_slice(&chunk.held);
        Ok(())
    }

    /// The store of pedestrian `p` (an index into [`Self::summaries`]) alone: its samples
    /// filed again within the budget this store was filed within (spilled past it), so that
    /// its chunks hold what this store's hold of it, copies across gaps included, and a
    /// playback of it holds what a playback of the whole file holds of it. Reads every chunk
    /// of its time span once; `None` when there is no such pedestrian.
    pub fn one(&self, p: usize) -> Result<Option<TrackStore>, TrajectoryError> {
        let Some(&summary) = self.summaries.get(p) else {
            return Ok(None);
        };
        let mut builder = match self.budget {
            Some(budget) => StoreBuilder::new(budget),
            None => StoreBuilder::in_memory(),
        };
        builder.set_frame_rate_of(self.file.frame_rate);
        let refused = |e: String| TrajectoryError::file(&self.file.file.display().to_string(), e);
        let mut records = Vec::new();
        for key in self.keys(chunk_of(summary.start)..=chunk_of(summary.end)) {
            self.load(key, &mut records)?;
            // Its samples filed here, not the copies across a gap (the builder makes those).
            let own = records
                .iter()
                .filter(|r| r.ped as usize == p && chunk_of(r.time) == key);
            for r in own {
                builder
                    .take(super::Row {
                        id: summary.id,
                        time: r.time,
                        position: r.position,
                        height: summary.height,
                    })
                    .map_err(refused)?;
            }
        }
        let file = StoreFile {
            geometry: None,
            ..self.file.clone()
        };
        Ok(Some(Self::new(file, builder.finish().map_err(refused)?)))
    }
}

#[cfg(test)]
mod tests;
