//! What a store is made of: chunks of samples by time, the samples as they are kept, and each
//! pedestrian's summary in the index.

use bytemuck::{Pod, Zeroable};

/// The length of a chunk, seconds: a chunk's samples are read at once, so a playback holds
/// about two chunks beyond its smoothing window.
pub const CHUNK_SECONDS: f64 = 2.0;

/// The chunk holding time `t`.
pub fn chunk_of(t: f64) -> i64 {
    // Times are within ±1e10 s (the readers refuse others), so the key fits.
    (t / CHUNK_SECONDS).floor() as i64
}

/// One pedestrian as the index knows it (no samples).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrackSummary {
    /// The file's id.
    pub id: u64,
    /// Its first sample's time, seconds.
    pub start: f64,
    /// Its last sample's time, seconds.
    pub end: f64,
    /// Its samples in the file.
    pub samples: u64,
    /// Its height, metres: the mean of the plausible heights the file gives (a tracked head
    /// bobs; a simulation's is constant), if any.
    pub height: Option<f32>,
}

/// A sample as a chunk holds it (32 bytes, the spill file's record).
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct StoredSample {
    /// Seconds.
    pub time: f64,
    /// Metres, the file's ground plane.
    pub position: [f64; 2],
    /// The pedestrian's index in [`TrackStore::summaries`](super::TrackStore::summaries).
    pub ped: u32,
    /// Unused.
    pub pad: u32,
}

/// A chunk: its records on the spill file, then those still in memory.
#[derive(Debug, Default)]
pub(crate) struct Chunk {
    pub(crate) blocks: Vec<Block>,
    pub(crate) held: Vec<StoredSample>,
}

/// A run of records on the spill file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block {
    pub(crate) offset: u64,
    pub(crate) count: u32,
}

impl Block {
    /// Its records.
    pub(crate) fn count(&self) -> u32 {
        self.count
    }
}
