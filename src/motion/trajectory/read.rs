//! `read` and `read_bytes`: size checks, format detection, then the format's reader fed into
//! the track builder, and the geometry (the file's, a Vadere scenario's, or `--geometry`).

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use super::budget::Budget;
use super::detect::HEAD_BYTES;
use super::eth_ucy::{self, EthUcyRows};
use super::fields::thousands;
use super::jupedsim::JuPedSimFile;
use super::rows::{RowSource, TrackBuilder, collect_tracks};
use super::{
    CsvRows, Format, Geometry, PathfinderRows, PeTrackRows, ReadOptions, Trajectories,
    TrajectoryError, Units, VadereRows, detect, parse_scenario, parse_wkt,
};

/// Reads a trajectory file whole: its tracks (sorted by id, in seconds and metres) and its
/// walkable geometry. The format is `options.format`, else detected from the content.
pub fn read(path: &Path, options: &ReadOptions) -> Result<Trajectories, TrajectoryError> {
    let name = path.display().to_string();
    let size = checked_size(path, &name, options.max_file_size)?;
    let mut head = Vec::new();
    File::open(path)
        .and_then(|f| f.take(HEAD_BYTES as u64).read_to_end(&mut head))
        .map_err(|e| TrajectoryError::file(&name, format!("cannot read: {e}")))?;
    let format = format_of(path, &name, &head, options)?;
    let budget = Budget::new(options.memory_budget(size));
    let mut trajectories = match format {
        Format::JuPedSim => read_jupedsim(path, &name, options, budget)?,
        _ => read_text(
            Source::File(path, size),
            &name,
            format,
            options,
            budget,
            path.parent(),
        )?,
    };
    override_geometry(&mut trajectories, options)?;
    Ok(trajectories)
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
    let budget = Budget::new(options.memory_budget(size));
    let mut trajectories = read_text(Source::Bytes(bytes), name, format, options, budget, None)?;
    override_geometry(&mut trajectories, options)?;
    Ok(trajectories)
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

fn read_text(
    source: Source<'_>,
    name: &str,
    format: Format,
    options: &ReadOptions,
    budget: Budget,
    directory: Option<&Path>,
) -> Result<Trajectories, TrajectoryError> {
    let metres = options.units.unwrap_or(Units::Metres);
    let collect = |rows: &mut dyn RowSource, fps: Option<f64>| collect_tracks(rows, budget, fps);
    let (frame_rate, tracks, geometry) = match format {
        Format::PeTrack => {
            let mut rows = PeTrackRows::open(name, source.open(name)?, options)?;
            let fps = rows.frame_rate();
            (Some(fps), collect(&mut rows, Some(fps))?, None)
        }
        Format::EthUcy => {
            let fps = match options.data_fps {
                Some(fps) => fps,
                None => eth_ucy::frame_rate_from_numbering(name, source.open(name)?)?,
            };
            let mut rows = EthUcyRows::open(name, source.open(name)?, fps, metres)?;
            let fps = rows.frame_rate();
            (Some(fps), collect(&mut rows, Some(fps))?, None)
        }
        Format::Vadere => {
            let mut rows = VadereRows::open(name, source.open(name)?, metres)?;
            let tracks = collect(&mut rows, None)?;
            let geometry =
                vadere_geometry(options, directory)?.map(|g| scaled(g, metres.metres_per_unit()));
            (None, tracks, geometry)
        }
        Format::Pathfinder => {
            let mut rows = PathfinderRows::open(name, source.open(name)?, options)?;
            (None, collect(&mut rows, None)?, None)
        }
        Format::Csv => {
            let mut rows = CsvRows::open(name, source.open(name)?, options)?;
            let fps = rows.frame_rate();
            (fps, collect(&mut rows, fps)?, None)
        }
        Format::JuPedSim => {
            return Err(TrajectoryError::file(
                name,
                "a JuPedSim SQLite file must be read from disk (read, not read_bytes)",
            ));
        }
    };
    Ok(Trajectories {
        file: PathBuf::from(name),
        format,
        frame_rate,
        tracks,
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

fn read_jupedsim(
    path: &Path,
    name: &str,
    options: &ReadOptions,
    budget: Budget,
) -> Result<Trajectories, TrajectoryError> {
    let metres_per_unit = options.units.unwrap_or(Units::Metres).metres_per_unit();
    let db = JuPedSimFile::open(path, name, metres_per_unit)?;
    let frame_rate = options.data_fps.unwrap_or(db.frame_rate());
    let frame_rate =
        super::fields::frame_rate(frame_rate).map_err(|e| TrajectoryError::file(name, e))?;
    let rescale = frame_rate != db.frame_rate();
    let mut builder = TrackBuilder::new(budget, Some(frame_rate));
    db.for_each_row(|mut row| {
        if rescale {
            row.time = row.time * db.frame_rate() / frame_rate;
        }
        builder.push(row)
    })?;
    let tracks = builder
        .finish()
        .map_err(|e| TrajectoryError::file(name, e))?;
    let geometry = db.geometry()?.map(|g| scaled(g, metres_per_unit));
    Ok(Trajectories {
        file: path.to_path_buf(),
        format: Format::JuPedSim,
        frame_rate: Some(frame_rate),
        tracks,
        geometry,
    })
}

/// Replaces the geometry with `options.geometry`'s WKT, if given.
fn override_geometry(
    trajectories: &mut Trajectories,
    options: &ReadOptions,
) -> Result<(), TrajectoryError> {
    if let Some(path) = &options.geometry {
        let text = read_small_text(path, options.max_file_size)?;
        let name = path.display().to_string();
        trajectories.geometry =
            Some(parse_wkt(&text).map_err(|e| TrajectoryError::file(&name, e))?);
    }
    Ok(())
}
