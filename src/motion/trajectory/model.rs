//! What a reader produces: pedestrians' tracks in seconds and metres, and the walkable geometry.

use std::path::PathBuf;

use super::Format;

/// One observation of a pedestrian.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Seconds, on the file's own clock (a frame-based file's first frame is not moved to 0).
    pub time: f64,
    /// Metres, in the file's ground plane (x, y).
    pub position: [f64; 2],
    /// Metres: the person's height, where the file gives one.
    pub height: Option<f32>,
}

/// One pedestrian's samples.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// The file's pedestrian id (at most 2^53, so that it survives a trip through an `f64`).
    pub id: u64,
    /// Strictly increasing in time; never empty when read from a file.
    pub samples: Vec<Sample>,
}

/// A closed polygon ring; the closing point is implicit (the last point is not the first again).
#[derive(Debug, Clone, PartialEq)]
pub struct Ring(pub Vec<[f64; 2]>);

/// A walkable polygon, with obstacles as holes.
#[derive(Debug, Clone, PartialEq)]
pub struct Area {
    /// The outer boundary.
    pub outline: Ring,
    /// Obstacles inside it.
    pub holes: Vec<Ring>,
}

/// The walkable geometry of a recording or simulation.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Geometry {
    /// Walkable polygons.
    pub areas: Vec<Area>,
}

impl Geometry {
    /// Every point of every ring.
    pub fn points(&self) -> impl Iterator<Item = [f64; 2]> + '_ {
        self.areas.iter().flat_map(|a| {
            std::iter::once(&a.outline)
                .chain(&a.holes)
                .flat_map(|r| r.0.iter().copied())
        })
    }
}

/// One row of a trajectory file, converted to seconds and metres: what the streaming layer yields.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// The pedestrian's id.
    pub id: u64,
    /// Seconds.
    pub time: f64,
    /// Metres, ground plane.
    pub position: [f64; 2],
    /// Metres, the person's height where the file gives one.
    pub height: Option<f32>,
}

/// A whole trajectory file, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectories {
    /// The file read (for `read_bytes`, the name given).
    pub file: PathBuf,
    /// Its format.
    pub format: Format,
    /// The rate of the file's frame numbering (time = frame / rate), where it has one; `None` for
    /// files that give times (Vadere, Pathfinder, a CSV with a time column). ETH/UCY files number
    /// video frames but annotate every 10th: the rate is the video's, 25 for ETH.
    pub frame_rate: Option<f64>,
    /// One track per pedestrian, sorted by id.
    pub tracks: Vec<Track>,
    /// The walkable area, where the file (or `ReadOptions::geometry`) gives one.
    pub geometry: Option<Geometry>,
}

impl Trajectories {
    /// The earliest sample's time in seconds (0 when there are no samples).
    pub fn start(&self) -> f64 {
        let first = self
            .tracks
            .iter()
            .filter_map(|t| t.samples.first())
            .map(|s| s.time);
        first.reduce(f64::min).unwrap_or(0.0)
    }

    /// The latest sample's time in seconds (0 when there are no samples).
    pub fn end(&self) -> f64 {
        let last = self
            .tracks
            .iter()
            .filter_map(|t| t.samples.last())
            .map(|s| s.time);
        last.reduce(f64::max).unwrap_or(0.0)
    }

    /// How many samples all tracks hold together.
    pub fn sample_count(&self) -> usize {
        self.tracks.iter().map(|t| t.samples.len()).sum()
    }

    /// The (min, max) corners of every sample and every geometry point; both `[0, 0]` when
    /// there is neither.
    pub fn bounds(&self) -> ([f64; 2], [f64; 2]) {
        let samples = self
            .tracks
            .iter()
            .flat_map(|t| t.samples.iter().map(|s| s.position));
        let geometry = self.geometry.iter().flat_map(Geometry::points);
        let mut all = samples.chain(geometry);
        let Some(first) = all.next() else {
            return ([0.0; 2], [0.0; 2]);
        };
        all.fold((first, first), |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1])],
                [hi[0].max(p[0]), hi[1].max(p[1])],
            )
        })
    }
}
