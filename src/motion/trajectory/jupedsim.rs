//! JuPedSim's SQLite trajectory files, schema versions 1 to 3 (from jupedsim's
//! `SqliteTrajectoryWriter` and `sqlite_serialization.py`):
//!
//! - all: `trajectory_data(frame, id, pos_x, pos_y, ...)` in metres, `metadata(key, value)` with
//!   `version` and `fps` (text, e.g. `"25.0"`);
//! - v1: `geometry(wkt)`, one row; no `frame_data`; `ori_x, ori_y` in `trajectory_data`;
//! - v2: `geometry(hash, wkt)` and `frame_data(frame, geometry_hash)`: the geometry may change
//!   per frame; `ori_x, ori_y` kept;
//! - v3: as v2 without `ori_x, ori_y` (jupedsim's v2-to-v3 upgrade only bumps the version), so it
//!   reads like v2.
//!
//! Geometry: v1 the one row of `geometry`. v2/v3: the geometry of the first frame in
//! `frame_data` (files whose geometry changes over time get their starting geometry; PedPy
//! instead unions them all, which a renderer cannot show either); with an empty `frame_data`,
//! the first row of `geometry`. A file without a `geometry` table has no geometry.
//!
//! The database is untrusted: it is opened read-only with SQLite's defensive mode on and its
//! schema untrusted, and the tables read must be ordinary tables (a view could run any query,
//! recursive ones included). Rows are streamed in frame order through one prepared statement.

use std::io::Read;
use std::path::Path;

use rusqlite::config::DbConfig;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, OptionalExtension};

use super::detect::SQLITE_MAGIC;
use super::fields::{self, MAX_FRAME, MAX_ID};
use super::{Geometry, Row, TrajectoryError, parse_wkt};

/// The schema versions read.
pub const VERSIONS: [i64; 3] = [1, 2, 3];

/// An open JuPedSim file, its metadata checked.
pub struct JuPedSimFile {
    conn: Connection,
    file: String,
    version: i64,
    frame_rate: f64,
    metres_per_unit: f64,
}

/// A value read from SQLite, named for messages.
fn describe(value: ValueRef<'_>) -> &'static str {
    match value {
        ValueRef::Null => "NULL",
        ValueRef::Integer(_) => "an integer",
        ValueRef::Real(_) => "a real",
        ValueRef::Text(_) => "text",
        ValueRef::Blob(_) => "a blob",
    }
}

/// A whole number from an INTEGER (or an integral REAL) column.
fn whole(value: ValueRef<'_>, what: &str, max: u64) -> Result<u64, String> {
    let limit = if max == MAX_ID {
        "2^53".to_owned()
    } else {
        max.to_string()
    };
    match value {
        ValueRef::Integer(i) if i < 0 => Err(format!("{what} {i} is negative")),
        ValueRef::Integer(i) if i as u64 > max => Err(format!("{what} {i} is over {limit}")),
        ValueRef::Integer(i) => Ok(i as u64),
        ValueRef::Real(r) if r.fract() == 0.0 && r < 0.0 => Err(format!("{what} {r} is negative")),
        ValueRef::Real(r) if r.fract() == 0.0 && r > max as f64 => {
            Err(format!("{what} {r} is over {limit}"))
        }
        // Whole and in range, so exact.
        ValueRef::Real(r) if r.fract() == 0.0 => Ok(r as u64),
        other => Err(format!("{what} is {}, not a whole number", describe(other))),
    }
}

/// A coordinate in metres from a REAL (or INTEGER) column.
fn coordinate(value: ValueRef<'_>, what: &str, metres_per_unit: f64) -> Result<f64, String> {
    let v = match value {
        ValueRef::Real(r) => r,
        ValueRef::Integer(i) => i as f64,
        other => return Err(format!("{what} is {}, not a number", describe(other))),
    };
    if v.is_nan() {
        return Err(format!("{what} is NaN"));
    }
    fields::checked_metres(what, v, metres_per_unit)
}

/// The text of a metadata value of any type.
fn as_text(value: ValueRef<'_>) -> Option<String> {
    match value {
        ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        ValueRef::Null | ValueRef::Blob(_) => None,
    }
}

impl JuPedSimFile {
    /// Opens `path` (named `file` in errors); coordinates are scaled by `metres_per_unit` (1 for
    /// any file JuPedSim wrote).
    pub fn open(path: &Path, file: &str, metres_per_unit: f64) -> Result<Self, TrajectoryError> {
        let mut magic = [0u8; 16];
        let head = std::fs::File::open(path)
            .and_then(|mut f| f.read(&mut magic))
            .map_err(|e| TrajectoryError::file(file, format!("cannot read: {e}")))?;
        if head < magic.len() || magic != SQLITE_MAGIC {
            return Err(TrajectoryError::file(
                file,
                "not an SQLite database (no 'SQLite format 3' header)",
            ));
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .map_err(|e| TrajectoryError::file(file, format!("cannot open the database: {e}")))?;
        for (config, on) in [
            (DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true),
            (DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false),
        ] {
            conn.set_db_config(config, on).map_err(|e| {
                TrajectoryError::file(file, format!("cannot configure SQLite: {e}"))
            })?;
        }
        let mut this = Self {
            conn,
            file: file.to_owned(),
            version: 0,
            frame_rate: 0.0,
            metres_per_unit,
        };
        this.require_table("metadata", &["key", "value"])?;
        this.require_table("trajectory_data", &["frame", "id", "pos_x", "pos_y"])?;
        let at_meta = |m: String| TrajectoryError::at(file, "table metadata", m);
        let version = this
            .metadata("version")?
            .ok_or_else(|| at_meta("no 'version' entry".into()))?;
        let version_number = version
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.fract() == 0.0 && v.abs() < 1e9);
        this.version = match version_number.map(|v| v as i64) {
            Some(v) if VERSIONS.contains(&v) => v,
            _ => {
                return Err(at_meta(format!(
                    "unknown schema version {} (versions 1, 2 and 3 are read)",
                    fields::quote(&version)
                )));
            }
        };
        let fps = this
            .metadata("fps")?
            .ok_or_else(|| at_meta("no 'fps' entry: the frame rate is missing".into()))?;
        let fps = fields::number("fps", &fps).map_err(at_meta)?;
        this.frame_rate = fields::frame_rate(fps).map_err(at_meta)?;
        Ok(this)
    }

    /// The schema version (1, 2 or 3).
    pub fn version(&self) -> i64 {
        self.version
    }

    /// The frame rate from the metadata.
    pub fn frame_rate(&self) -> f64 {
        self.frame_rate
    }

    fn sql_error(&self, at: &str, e: rusqlite::Error) -> TrajectoryError {
        TrajectoryError::at(&self.file, at, e.to_string())
    }

    /// Whether `name` is an ordinary table; errors if it is a view or a virtual table.
    fn table_exists(&self, name: &str) -> Result<bool, TrajectoryError> {
        let at = format!("table {name}");
        let found: Option<(String, Option<String>)> = self
            .conn
            .query_row(
                "SELECT type, sql FROM sqlite_master WHERE name = ?1 COLLATE NOCASE",
                [name],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.sql_error(&at, e))?;
        match found {
            None => Ok(false),
            Some((kind, _)) if kind != "table" => Err(TrajectoryError::at(
                &self.file,
                at,
                format!("{name} is a {kind}, not a table"),
            )),
            Some((_, Some(sql)))
                if sql
                    .trim_start()
                    .to_ascii_uppercase()
                    .starts_with("CREATE VIRTUAL") =>
            {
                Err(TrajectoryError::at(
                    &self.file,
                    at,
                    format!("{name} is a virtual table"),
                ))
            }
            Some(_) => Ok(true),
        }
    }

    /// Fails unless `name` is a table with every one of `columns`.
    fn require_table(&self, name: &str, columns: &[&str]) -> Result<(), TrajectoryError> {
        let at = format!("table {name}");
        if !self.table_exists(name)? {
            return Err(TrajectoryError::at(
                &self.file,
                at,
                format!("missing: the database has no table {name} (not a JuPedSim file?)"),
            ));
        }
        let mut stmt = self
            .conn
            .prepare("SELECT name FROM pragma_table_info(?1)")
            .map_err(|e| self.sql_error(&at, e))?;
        let names: Vec<String> = stmt
            .query_map([name], |r| r.get(0))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.sql_error(&at, e))?;
        for column in columns {
            if !names.iter().any(|n| n.eq_ignore_ascii_case(column)) {
                return Err(TrajectoryError::at(
                    &self.file,
                    at,
                    format!("no column {column}"),
                ));
            }
        }
        Ok(())
    }

    /// A metadata value as text, if the key is there.
    fn metadata(&self, key: &str) -> Result<Option<String>, TrajectoryError> {
        self.conn
            .query_row("SELECT value FROM metadata WHERE key = ?1", [key], |r| {
                Ok(as_text(r.get_ref(0)?))
            })
            .optional()
            .map(Option::flatten)
            .map_err(|e| self.sql_error("table metadata", e))
    }

    /// The walkable geometry (see the module's notes on which one); `None` without a geometry
    /// table.
    pub fn geometry(&self) -> Result<Option<Geometry>, TrajectoryError> {
        if !self.table_exists("geometry")? {
            return Ok(None);
        }
        let at = "table geometry";
        let text = |v: ValueRef<'_>| match v {
            ValueRef::Text(t) => Ok(String::from_utf8_lossy(t).into_owned()),
            other => Err(format!("wkt is {}, not text", describe(other))),
        };
        let first_frame_hash = if self.version >= 2 && self.table_exists("frame_data")? {
            self.require_table("frame_data", &["frame", "geometry_hash"])?;
            self.require_table("geometry", &["hash", "wkt"])?;
            self.conn
                .query_row(
                    "SELECT geometry_hash FROM frame_data ORDER BY frame LIMIT 1",
                    [],
                    |r| r.get::<_, i64>(0),
                )
                .optional()
                .map_err(|e| self.sql_error("table frame_data", e))?
        } else {
            self.require_table("geometry", &["wkt"])?;
            None
        };
        let wkt = match first_frame_hash {
            Some(hash) => self
                .conn
                .query_row("SELECT wkt FROM geometry WHERE hash = ?1", [hash], |r| {
                    Ok(text(r.get_ref(0)?))
                })
                .optional()
                .map_err(|e| self.sql_error(at, e))?
                .ok_or_else(|| {
                    TrajectoryError::at(
                        &self.file,
                        at,
                        format!("no geometry with hash {hash}, which frame_data names"),
                    )
                })?,
            None => match self
                .conn
                .query_row("SELECT wkt FROM geometry ORDER BY rowid LIMIT 1", [], |r| {
                    Ok(text(r.get_ref(0)?))
                })
                .optional()
                .map_err(|e| self.sql_error(at, e))?
            {
                Some(wkt) => wkt,
                None => return Ok(None),
            },
        };
        let wkt = wkt.map_err(|e| TrajectoryError::at(&self.file, at, e))?;
        parse_wkt(&wkt)
            .map(Some)
            .map_err(|e| TrajectoryError::at(&self.file, at, e))
    }

    /// Streams every row of `trajectory_data` in frame order (then id) to `f`; an error from `f`
    /// is reported at that row.
    pub fn for_each_row(
        &self,
        mut f: impl FnMut(Row) -> Result<(), String>,
    ) -> Result<(), TrajectoryError> {
        let at = "table trajectory_data";
        let mut stmt = self
            .conn
            .prepare("SELECT frame, id, pos_x, pos_y FROM trajectory_data ORDER BY frame, id")
            .map_err(|e| self.sql_error(at, e))?;
        let mut rows = stmt.query([]).map_err(|e| self.sql_error(at, e))?;
        let mut n: u64 = 0;
        loop {
            let row = match rows.next() {
                Ok(Some(row)) => row,
                Ok(None) => return Ok(()),
                Err(e) => {
                    return Err(self.sql_error(&format!("row {} of trajectory_data", n + 1), e));
                }
            };
            n += 1;
            let parsed = (|| -> Result<Row, String> {
                let get = |i: usize| row.get_ref(i).map_err(|e| e.to_string());
                let frame = whole(get(0)?, "frame", MAX_FRAME)?;
                let id = whole(get(1)?, "id", MAX_ID)?;
                let x = coordinate(get(2)?, "pos_x", self.metres_per_unit)?;
                let y = coordinate(get(3)?, "pos_y", self.metres_per_unit)?;
                Ok(Row {
                    id,
                    time: frame as f64 / self.frame_rate,
                    position: [x, y],
                    height: None,
                })
            })();
            if let Err(message) = parsed.and_then(&mut f) {
                return Err(TrajectoryError::at(
                    &self.file,
                    format!("row {n} of trajectory_data"),
                    message,
                ));
            }
        }
    }
}
