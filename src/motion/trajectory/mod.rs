//! Pedestrian trajectories from the crowd-simulation and crowd-recording tools: JuPedSim
//! (SQLite), PeTrack / the Jülich data archive (text), Vadere (foot steps + scenario),
//! Pathfinder (CSV), ETH/UCY (OpenTraj text) and generic CSV.
//!
//! Every reader turns its file into [`Track`]s in seconds and metres, with the walkable
//! [`Geometry`] where the file has one. [`read()`] loads a file whole; [`open_store`] files it
//! by chunk of time for playback ([`TrackStore`]: in memory while small, else on a temporary
//! file), so that playing a file takes memory for the crowd present, not for the file's
//! duration. Underneath, each text format
//! is an iterator of [`Row`]s in file order ([`PeTrackRows`], [`EthUcyRows`], [`VadereRows`],
//! [`PathfinderRows`], [`CsvRows`]), and JuPedSim's SQLite a query in frame order
//! ([`JuPedSimFile::for_each_row`]), so that playback can stream instead.
//!
//! Input is untrusted: every failure is a [`TrajectoryError`] of one line naming the file and
//! the place; nothing panics on content; tracks grow only within a memory budget; a file that
//! lacks a frame rate or unit it needs is refused with the flag to give, never guessed.

mod budget;
mod csv;
mod detect;
mod error;
mod eth_ucy;
mod fields;
mod format;
mod jupedsim;
mod lines;
mod model;
mod options;
mod pathfinder;
mod petrack;
mod read;
mod rows;
mod split;
mod store;
mod text_rows;
mod vadere;
mod vadere_scenario;
mod wkt;

#[cfg(test)]
mod tests;

pub use csv::CsvRows;
pub use detect::{HEAD_BYTES, detect};
pub use error::TrajectoryError;
pub use eth_ucy::{ANNOTATIONS_PER_SECOND, EthUcyRows, frame_rate_from_numbering};
pub use format::{Format, Units};
pub use jupedsim::{JuPedSimFile, VERSIONS as JUPEDSIM_VERSIONS};
pub use model::{Area, Geometry, Ring, Row, Sample, Track, Trajectories};
pub use options::{ColumnNames, Columns, ReadOptions};
pub use pathfinder::PathfinderRows;
pub use petrack::PeTrackRows;
pub use read::{open_store, read, read_bytes};
pub use rows::RowSource;
pub use store::{CHUNK_SECONDS, StoredSample, TrackStore, TrackSummary, chunk_of};
pub use vadere::VadereRows;
pub use vadere_scenario::parse_scenario;
pub use wkt::parse_wkt;
