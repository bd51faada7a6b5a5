//! What the caller tells a reader: the format, a frame rate or units a file lacks, CSV columns,
//! geometry, and limits for untrusted input.

use std::path::PathBuf;
use std::str::FromStr;

use super::{Format, Units};

/// Options for [`read()`](super::read()) and [`read_bytes`](super::read_bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct ReadOptions {
    /// The format; `None` detects it from the content (the extension only breaks ties).
    pub format: Option<Format>,
    /// Frames per second, for files whose frame numbers come without a rate (`--data-fps`).
    /// Where a file states its own rate, this overrides it.
    pub data_fps: Option<f64>,
    /// The coordinates' unit, for files that do not state it (`--units`); overrides the file's.
    pub units: Option<Units>,
    /// Which columns hold what, for [`Format::Csv`].
    pub columns: Option<Columns>,
    /// Vadere: the `.scenario` file. `None`: the one `*.scenario` beside the `.traj` if there is
    /// exactly one, else no geometry.
    pub scenario: Option<PathBuf>,
    /// A text file of WKT (POLYGON / MULTIPOLYGON / GEOMETRYCOLLECTION) to use as the geometry;
    /// overrides the file's own.
    pub geometry: Option<PathBuf>,
    /// Input files bigger than this many bytes are refused.
    pub max_file_size: u64,
    /// Bytes the tracks may take; `None`: 64 MiB + 32 x the input's size, capped at 4 GiB.
    pub max_memory: Option<u64>,
}

impl Default for ReadOptions {
    /// Detect everything; refuse inputs over 1 GiB; the default memory budget.
    fn default() -> Self {
        Self {
            format: None,
            data_fps: None,
            units: None,
            columns: None,
            scenario: None,
            geometry: None,
            max_file_size: 1 << 30,
            max_memory: None,
        }
    }
}

impl ReadOptions {
    /// The memory budget for an input of `input_bytes`.
    pub fn memory_budget(&self, input_bytes: u64) -> u64 {
        const MIB: u64 = 1 << 20;
        self.max_memory.unwrap_or_else(|| {
            (64 * MIB)
                .saturating_add(input_bytes.saturating_mul(32))
                .min(4096 * MIB)
        })
    }
}

/// Which column of a generic CSV holds what (0-based indices).
///
/// Parsed from `"id=0,frame=1,x=2,y=3"` or `"id=0,time=1,x=2,y=3,height=4"`, or with header
/// names instead of indices (`"id=ped,time=t,x=x,y=y"`): then [`Columns::names`] holds them and
/// the reader resolves them against the file's header row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Columns {
    /// The pedestrian id.
    pub id: usize,
    /// Time in seconds (give this or `frame`).
    pub time: Option<usize>,
    /// Frame number (needs `ReadOptions::data_fps`).
    pub frame: Option<usize>,
    /// Ground-plane x.
    pub x: usize,
    /// Ground-plane y.
    pub y: usize,
    /// Elevation: checked to be a number, not kept (samples are planar).
    pub z: Option<usize>,
    /// The person's height, in the file's units.
    pub height: Option<usize>,
    /// Header names to resolve instead of the indices above (which are then 0 and unused).
    pub names: Option<ColumnNames>,
}

/// [`Columns`] given by header names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnNames {
    /// The id column's name.
    pub id: String,
    /// The time column's name.
    pub time: Option<String>,
    /// The frame column's name.
    pub frame: Option<String>,
    /// The x column's name.
    pub x: String,
    /// The y column's name.
    pub y: String,
    /// The z column's name.
    pub z: Option<String>,
    /// The height column's name.
    pub height: Option<String>,
}

/// The keys a column spec may use, in the order fields are listed.
const KEYS: [&str; 7] = ["id", "time", "frame", "x", "y", "z", "height"];

/// A spec parsed into one optional value per key of [`KEYS`].
fn parse_pairs(s: &str) -> Result<[Option<String>; 7], String> {
    let mut values: [Option<String>; 7] = Default::default();
    for pair in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("'{pair}' is not key=column (e.g. x=2)"))?;
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim();
        let slot = KEYS
            .iter()
            .position(|k| *k == key)
            .ok_or_else(|| format!("unknown column key '{key}' (expected {})", KEYS.join(", ")))?;
        if value.is_empty() {
            return Err(format!("no column given for {key}"));
        }
        if values[slot].replace(value.to_owned()).is_some() {
            return Err(format!("{key} given twice"));
        }
    }
    for (slot, key) in [(0, "id"), (3, "x"), (4, "y")] {
        if values[slot].is_none() {
            return Err(format!("no {key}= column given"));
        }
    }
    match (&values[1], &values[2]) {
        (None, None) => Err("give a time= or a frame= column".to_owned()),
        (Some(_), Some(_)) => Err("give a time= or a frame= column, not both".to_owned()),
        _ => Ok(values),
    }
}

impl FromStr for Columns {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let v = parse_pairs(s)?;
        let numeric = v
            .iter()
            .flatten()
            .filter(|x| x.bytes().all(|b| b.is_ascii_digit()))
            .count();
        let given = v.iter().flatten().count();
        if numeric == given {
            let index = |i: usize| -> Result<Option<usize>, String> {
                v[i].as_deref()
                    .map(|t| {
                        t.parse::<usize>()
                            .map_err(|_| format!("column index '{t}' is too large"))
                    })
                    .transpose()
            };
            let columns = Columns {
                id: index(0)?.unwrap_or(0),
                time: index(1)?,
                frame: index(2)?,
                x: index(3)?.unwrap_or(0),
                y: index(4)?.unwrap_or(0),
                z: index(5)?,
                height: index(6)?,
                names: None,
            };
            columns.check_distinct()?;
            Ok(columns)
        } else if numeric == 0 {
            let [id, time, frame, x, y, z, height] = v;
            Ok(Columns {
                id: 0,
                time: None,
                frame: None,
                x: 0,
                y: 0,
                z: None,
                height: None,
                names: Some(ColumnNames {
                    id: id.unwrap_or_default(),
                    time,
                    frame,
                    x: x.unwrap_or_default(),
                    y: y.unwrap_or_default(),
                    z,
                    height,
                }),
            })
        } else {
            Err("give all columns as indices or all as header names, not a mix".to_owned())
        }
    }
}

impl Columns {
    /// The indices as (key, index) pairs, unused keys left out.
    fn used(&self) -> Vec<(&'static str, usize)> {
        let all = [
            ("id", Some(self.id)),
            ("time", self.time),
            ("frame", self.frame),
            ("x", Some(self.x)),
            ("y", Some(self.y)),
            ("z", self.z),
            ("height", self.height),
        ];
        all.into_iter()
            .filter_map(|(k, i)| i.map(|i| (k, i)))
            .collect()
    }

    /// Refuses one column used for two things.
    fn check_distinct(&self) -> Result<(), String> {
        let used = self.used();
        for (n, (key, index)) in used.iter().enumerate() {
            if let Some((other, _)) = used[n + 1..].iter().find(|(_, i)| i == index) {
                return Err(format!("column {index} given for both {key} and {other}"));
            }
        }
        Ok(())
    }

    /// The highest index used (a row needs more fields than this).
    pub(crate) fn max_index(&self) -> usize {
        self.used().into_iter().map(|(_, i)| i).max().unwrap_or(0)
    }

    /// These columns as indices: names looked up in `header` (exact match, then ignoring case).
    pub(crate) fn resolve(&self, header: Option<&[String]>) -> Result<Columns, String> {
        let Some(names) = &self.names else {
            return Ok(self.clone());
        };
        let header = header.ok_or("columns are given by name but the file has no header row")?;
        let find = |name: &str| -> Result<usize, String> {
            header
                .iter()
                .position(|h| h == name)
                .or_else(|| header.iter().position(|h| h.eq_ignore_ascii_case(name)))
                .ok_or_else(|| format!("the header has no column '{name}'"))
        };
        let optional = |name: &Option<String>| name.as_deref().map(find).transpose();
        let columns = Columns {
            id: find(&names.id)?,
            time: optional(&names.time)?,
            frame: optional(&names.frame)?,
            x: find(&names.x)?,
            y: find(&names.y)?,
            z: optional(&names.z)?,
            height: optional(&names.height)?,
            names: None,
        };
        columns.check_distinct()?;
        Ok(columns)
    }
}

#[cfg(test)]
mod tests {
    use super::{Columns, ReadOptions};

    #[test]
    fn columns_by_index_and_name() {
        let c: Columns = "id=0,frame=1,x=2,y=3".parse().unwrap();
        assert_eq!((c.id, c.frame, c.time, c.x, c.y), (0, Some(1), None, 2, 3));
        let c: Columns = "id=0, time=1, x=2, y=3, height=4".parse().unwrap();
        assert_eq!((c.time, c.height, c.max_index()), (Some(1), Some(4), 4));
        let named: Columns = "id=ped,time=t,x=X,y=y".parse().unwrap();
        let header: Vec<String> = ["t", "ped", "x", "y"].map(String::from).to_vec();
        let r = named.resolve(Some(&header)).unwrap();
        assert_eq!((r.id, r.time, r.x, r.y), (1, Some(0), 2, 3));
        assert!(named.resolve(None).is_err());
        for bad in [
            "id=0,x=1,y=2",
            "id=0,time=1,frame=2,x=3,y=4",
            "id=0,time=1,x=1,y=2",
            "id=a,time=1,x=2,y=3",
            "q=1",
            "id=0,id=1,time=2,x=3,y=4",
        ] {
            assert!(bad.parse::<Columns>().is_err(), "{bad}");
        }
    }

    #[test]
    fn default_budget() {
        let o = ReadOptions::default();
        assert_eq!(o.memory_budget(1 << 20), (64 << 20) + (32 << 20));
        assert_eq!(o.memory_budget(1 << 40), 4096 << 20);
    }
}
