//! `read`, `read_bytes` and `open_store`: size checks, format detection, then one pass of the
//! format's reader into a sink (whole tracks, or a playback's store), and the geometry (the
//! file's, a Vadere scenario's, or `--geometry`).

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use super::budget::Budget;
use super::detect::HEAD_BYTES;
use super::eth_ucy::{self, EthUcyRows};
use super::fields::thousands;
use super::jupedsim::JuPedSimFile;
use super::rows::{RowSink, TrackBuilder, feed};
use super::store::{StoreBuilder, StoreFile, TrackStore};
use super::{
    CsvRows, Format, Geometry, PathfinderRows, PeTrackRows, ReadOptions, Track, Trajectories,
    TrajectoryError, Units, VadereRows, detect, parse_scenario, parse_wkt,
};

/// Reads a trajectory file whole: its tracks (sorted by id, in seconds and metres) and its
/// walkable geometry. The format is `options.format`, else detected from the content.
pub fn read(path: &Path, options: &ReadOptions) -> Result<Trajectories, TrajectoryError> {
    let name = path.display().to_string();
    let (size, format) = checked_file(path, &name, options)?;
    let mut builder = TrackBuilder::new(Budget::new(options.memory_budget(size)), None);
    let pass = pass_file(path, &name, size, format, options, &mut builder)?;
    let tracks = builder
        .finish()
        .map_err(|e| TrajectoryError::file(&name, e))?;
    Ok(pass.into_trajectories(path.to_path_buf(), tracks))
}

/// Reads a trajectory file into a [`TrackStore`] for playback: one pass that indexes its
/// pedestrians and files its samples by chunk of time, spilling them to a temporary file
/// when they are more than memory should hold (`options.max_memory` bounds what stays).
pub fn open_store(path: &Path, options: &ReadOptions) -> Result<TrackStore, TrajectoryError> {
    let name = path.display().to_string();
    let (size, format) = checked_file(path, &name, options)?;
    let mut builder = StoreBuilder::new(Budget::new(options.memory_budget(size)));
    let pass = pass_file(path, &name, size, format, options, &mut builder)?;
    let parts = builder
        .finish()
        .map_err(|e| TrajectoryError::file(&name, e))?;
    Ok(TrackStore::new(
        StoreFile {
            file: path.to_path_buf(),
            format,
            frame_rate: pass.frame_rate,
            geometry: pass.geometry,
        },
        parts,
    ))
}

/// The size and the format of a file to read, refused when over the size limit or of no
/// format known.
fn checked_file(
    path: &Path,
    name: &str,
    options: &ReadOptions,
) -> Result<(u64, Format), TrajectoryError> {
    let size = checked_size(path, name, options.max_file_size)?;
    let mut head = Vec::new();
    File::open(path)
        .and_then(|f| f.take(HEAD_BYTES as u64).read_to_end(&mut head))
        .map_err(|e| TrajectoryError::file(name, format!("cannot read: {e}")))?;
    Ok((size, format_of(path, name, &head, options)?))
}

/// What a pass over a file finds besides its rows.
struct Pass {
    format: Format,
    frame_rate: Option<f64>,
    geometry: Option<Geometry>,
}

impl Pass {
    fn into_trajectories(self, file: PathBuf, tracks: Vec<Track>) -> Trajectories {
        Trajectories {
            file,
            format: self.format,
            frame_rate: self.frame_rate,
            tracks,
            geometry: self.geometry,
        }
    }
}

/// Every row of the file at `path` into `sink`; its frame rate and its geometry (or
/// `--geometry`'s).
fn pass_file(
    path: &Path,
    name: &str,
    size: u64,
    format: Format,
    options: &ReadOptions,
    sink: &mut dyn RowSink,
) -> Result<Pass, TrajectoryError> {
    let mut pass = match format {
        Format::JuPedSim => pass_jupedsim(path, name, options, sink)?,
        _ => pass_text(
            Source::File(path, size),
            name,
            format,
            options,
            sink,
            path.parent(),
        )?,
    };
    override_geometry(&mut pass.geometry, options)?;
    Ok(pass)
}

/// Reads a text-format trajectory held in memory (for fuzzing and tests); `name` names it in
/// errors and decides nothing else (no `.scenario` is looked for beside it: give
/// `options.scenario`). SQLite needs a file: JuPedSim content is refused with an error, as
/// SQLite opens files, and writing a temporary one is the caller's choice to make.
pub fn read_bytes(
    name: &str,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<Trajectories, TrajectoryError> {
    let size = bytes.len() as u64;
    if size > options.max_file_size {
        return Err(too_big(name, size, options.max_file_size));
    }
    let head = &bytes[..bytes.len().min(HEAD_BYTES)];
    let format = format_of(Path::new(name), name, head, options)?;
    let mut builder = TrackBuilder::new(Budget::new(options.memory_budget(size)), None);
    let mut pass = pass_text(
        Source::Bytes(bytes),
        name,
        format,
        options,
        &mut builder,
        None,
    )?;
    override_geometry(&mut pass.geometry, options)?;
    let tracks = builder
        .finish()
        .map_err(|e| TrajectoryError::file(name, e))?;
    Ok(pass.into_trajectories(PathBuf::from(name), tracks))
}

fn too_big(name: &str, size: u64, limit: u64) -> TrajectoryError {
    TrajectoryError::file(
        name,
        format!(
            "{} bytes, over the limit of {} bytes (--max-file-size)",
            thousands(size),
            thousands(limit)
        ),
    )
}

/// The size of a regular file, refused over `limit`.
fn checked_size(path: &Path, name: &str, limit: u64) -> Result<u64, TrajectoryError> {
    let meta = std::fs::metadata(path)
        .map_err(|e| TrajectoryError::file(name, format!("cannot read: {e}")))?;
    if !meta.is_file() {
        return Err(TrajectoryError::file(name, "not a regular file"));
    }
    if meta.len() > limit {
        return Err(too_big(name, meta.len(), limit));
    }
    Ok(meta.len())
}

/// A whole small text file (a scenario, a WKT geometry) under the size limit.
fn read_small_text(path: &Path, limit: u64) -> Result<String, TrajectoryError> {
    let name = path.display().to_string();
    checked_size(path, &name, limit)?;
    let bytes = std::fs::read(path)
        .map_err(|e| TrajectoryError::file(&name, format!("cannot read: {e}")))?;
    String::from_utf8(bytes).map_err(|_| TrajectoryError::file(&name, "not UTF-8 text"))
}

fn format_of(
    path: &Path,
    name: &str,
    head: &[u8],
    options: &ReadOptions,
) -> Result<Format, TrajectoryError> {
    if let Some(format) = options.format {
        return Ok(format);
    }
    if head.iter().all(u8::is_ascii_whitespace) {
        return Err(TrajectoryError::file(name, "empty file: no pedestrians"));
    }
    detect(path, head).ok_or_else(|| {
        TrajectoryError::file(
            name,
            "cannot tell the format from the content: give --format",
        )
    })
}

/// Where text comes from: a file (reopened for each pass, read no further than the size it had
/// when checked, should it grow meanwhile) or bytes.
#[derive(Clone, Copy)]
enum Source<'a> {
    File(&'a Path, u64),
    Bytes(&'a [u8]),
}

impl<'a> Source<'a> {
    fn open(self, name: &str) -> Result<Box<dyn BufRead + 'a>, TrajectoryError> {
        match self {
            Source::File(path, size) => File::open(path)
                .map(|f| {
                    Box::new(BufReader::with_capacity(1 << 16, f.take(size))) as Box<dyn BufRead>
                })
                .map_err(|e| TrajectoryError::file(name, format!("cannot read: {e}"))),
            Source::Bytes(bytes) => Ok(Box::new(bytes)),
        }
    }
}

/// Every point scaled by `factor` (a unit override applied to a file's own geometry).
fn scaled(mut geometry: Geometry, factor: f64) -> Geometry {
    for area in &mut geometry.areas {
        for ring in std::iter::once(&mut area.outline).chain(&mut area.holes) {
            for p in &mut ring.0 {
                *p = [
                    super::fields::to_metres(p[0], factor),
                    super::fields::to_metres(p[1], factor),
                ];
            }
        }
    }
    geometry
}

fn pass_text(
    source: Source<'_>,
    name: &str,
    format: Format,
    options: &ReadOptions,
    sink: &mut dyn RowSink,
    directory: Option<&Path>,
) -> Result<Pass, TrajectoryError> {
    let metres = options.units.unwrap_or(Units::Metres);
    let (frame_rate, geometry) = match format {
        Format::PeTrack => {
            let mut rows = PeTrackRows::open(name, source.open(name)?, options)?;
            let fps = rows.frame_rate();
            feed(&mut rows, sink, Some(fps))?;
            (Some(fps), None)
        }
        Format::EthUcy => {
            let fps = match options.data_fps {
                Some(fps) => fps,
                None => eth_ucy::frame_rate_from_numbering(name, source.open(name)?)?,
            };
            let mut rows = EthUcyRows::open(name, source.open(name)?, fps, metres)?;
            let fps = rows.frame_rate();
            feed(&mut rows, sink, Some(fps))?;
            (Some(fps), None)
        }
        Format::Vadere => {
            let mut rows = VadereRows::open(name, source.open(name)?, metres)?;
            feed(&mut rows, sink, None)?;
            let geometry =
                vadere_geometry(options, directory)?.map(|g| scaled(g, metres.metres_per_unit()));
            (None, geometry)
        }
        Format::Pathfinder => {
            let mut rows = PathfinderRows::open(name, source.open(name)?, options)?;
            feed(&mut rows, sink, None)?;
            (None, None)
        }
        Format::Csv => {
            let mut rows = CsvRows::open(name, source.open(name)?, options)?;
            let fps = rows.frame_rate();
            feed(&mut rows, sink, fps)?;
            (fps, None)
        }
        Format::JuPedSim => {
            return Err(TrajectoryError::file(
                name,
                "a JuPedSim SQLite file must be read from disk (read, not read_bytes)",
            ));
        }
    };
    Ok(Pass {
        format,
        frame_rate,
        geometry,
    })
}

/// The scenario to use: the option's, else the only `*.scenario` in `directory`.
fn vadere_geometry(
    options: &ReadOptions,
    directory: Option<&Path>,
) -> Result<Option<Geometry>, TrajectoryError> {
    let path = match (&options.scenario, directory) {
        (Some(path), _) => path.clone(),
        (None, Some(dir)) => match single_scenario(dir) {
            Some(path) => path,
            None => return Ok(None),
        },
        (None, None) => return Ok(None),
    };
    let text = read_small_text(&path, options.max_file_size)?;
    let name = path.display().to_string();
    parse_scenario(&text)
        .map(Some)
        .map_err(|e| TrajectoryError::file(&name, e))
}

/// The one `*.scenario` file in `dir`, if there is exactly one.
fn single_scenario(dir: &Path) -> Option<PathBuf> {
    // A directory may be huge; a scenario among its first entries is enough to go on.
    const MAX_ENTRIES: usize = 100_000;
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let mut found = std::fs::read_dir(dir)
        .ok()?
        .take(MAX_ENTRIES)
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("scenario"))
                && p.is_file()
        });
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

fn pass_jupedsim(
    path: &Path,
    name: &str,
    options: &ReadOptions,
    sink: &mut dyn RowSink,
) -> Result<Pass, TrajectoryError> {
    let metres_per_unit = options.units.unwrap_or(Units::Metres).metres_per_unit();
    let db = JuPedSimFile::open(path, name, metres_per_unit)?;
    let frame_rate = options.data_fps.unwrap_or(db.frame_rate());
    let frame_rate =
        super::fields::frame_rate(frame_rate).map_err(|e| TrajectoryError::file(name, e))?;
    let rescale = frame_rate != db.frame_rate();
    sink.set_frame_rate(Some(frame_rate));
    db.for_each_row(|mut row| {
        if rescale {
            row.time = row.time * db.frame_rate() / frame_rate;
        }
        sink.push(row)
    })?;
    let geometry = db.geometry()?.map(|g| scaled(g, metres_per_unit));
    Ok(Pass {
        format: Format::JuPedSim,
        frame_rate: Some(frame_rate),
        geometry,
    })
}

/// Replaces the geometry with `options.geometry`'s WKT, if given.
fn override_geometry(
    geometry: &mut Option<Geometry>,
    options: &ReadOptions,
) -> Result<(), TrajectoryError> {
    if let Some(path) = &options.geometry {
        let text = read_small_text(path, options.max_file_size)?;
        let name = path.display().to_string();
        *geometry = Some(parse_wkt(&text).map_err(|e| TrajectoryError::file(&name, e))?);
    }
    Ok(())
}
