//! Stand-in for the trajectory readers while they are written (types only).
#![allow(missing_docs, dead_code)]
use std::path::{Path, PathBuf};
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    JuPedSim,
    PeTrack,
    Vadere,
    Pathfinder,
    EthUcy,
    Csv,
}
impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Units {
    Metres,
    Centimetres,
    Millimetres,
}
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns {
    pub id: usize,
    pub time: Option<usize>,
    pub frame: Option<usize>,
    pub x: usize,
    pub y: usize,
    pub z: Option<usize>,
    pub height: Option<usize>,
}
impl std::str::FromStr for Columns {
    type Err = String;
    fn from_str(_: &str) -> Result<Self, String> {
        Err("todo".into())
    }
}
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    pub format: Option<Format>,
    pub data_fps: Option<f64>,
    pub units: Option<Units>,
    pub columns: Option<Columns>,
    pub scenario: Option<PathBuf>,
    pub geometry: Option<PathBuf>,
    pub max_file_size: u64,
    pub max_memory: Option<u64>,
}
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub time: f64,
    pub position: [f64; 2],
    pub height: Option<f32>,
}
#[derive(Clone, Debug)]
pub struct Track {
    pub id: u64,
    pub samples: Vec<Sample>,
}
#[derive(Clone, Debug)]
pub struct Ring(pub Vec<[f64; 2]>);
#[derive(Clone, Debug)]
pub struct Area {
    pub outline: Ring,
    pub holes: Vec<Ring>,
}
#[derive(Clone, Debug)]
pub struct Geometry {
    pub areas: Vec<Area>,
}
#[derive(Clone, Debug)]
pub struct Trajectories {
    pub file: PathBuf,
    pub format: Format,
    pub frame_rate: Option<f64>,
    pub tracks: Vec<Track>,
    pub geometry: Option<Geometry>,
}
impl Trajectories {
    pub fn start(&self) -> f64 {
        0.0
    }
    pub fn end(&self) -> f64 {
        0.0
    }
    pub fn sample_count(&self) -> usize {
        0
    }
    pub fn bounds(&self) -> ([f64; 2], [f64; 2]) {
        ([0.0; 2], [0.0; 2])
    }
}
#[derive(Debug)]
pub struct TrajectoryError {
    pub file: String,
    pub at: Option<String>,
    pub message: String,
}
impl std::fmt::Display for TrajectoryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}
pub fn read(path: &Path, _o: &ReadOptions) -> Result<Trajectories, TrajectoryError> {
    Err(TrajectoryError {
        file: path.display().to_string(),
        at: None,
        message: "todo".into(),
    })
}
