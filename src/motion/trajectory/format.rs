//! The file formats the readers know, and the length units a file may be written in.

use std::fmt;
use std::str::FromStr;

/// A pedestrian-trajectory file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// JuPedSim's SQLite output (schema versions 1 to 3).
    JuPedSim,
    /// Jülich pedestrian data archive / PeTrack text: `id frame x y [z ...]`.
    PeTrack,
    /// Vadere foot steps (`postvis.traj`), with the scenario's topography as geometry.
    Vadere,
    /// Pathfinder's CSV export: a quoted header row, a units row, then `t,id,name,active,x,y,...`.
    Pathfinder,
    /// ETH/UCY as OpenTraj distributes it: `frame id x y` or the 8-column `obsmat.txt`.
    EthUcy,
    /// Any other delimited text, described by [`Columns`](super::Columns).
    Csv,
}

impl Format {
    /// Every format, in the order error messages list them.
    pub const ALL: [Format; 6] = [
        Format::JuPedSim,
        Format::PeTrack,
        Format::Vadere,
        Format::Pathfinder,
        Format::EthUcy,
        Format::Csv,
    ];

    /// The name used on the command line (`--format`).
    pub fn name(self) -> &'static str {
        match self {
            Format::JuPedSim => "jupedsim",
            Format::PeTrack => "petrack",
            Format::Vadere => "vadere",
            Format::Pathfinder => "pathfinder",
            Format::EthUcy => "eth-ucy",
            Format::Csv => "csv",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    /// Parses a command-line name, ignoring ASCII case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim();
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown format '{wanted}' (expected one of {})",
                    names.join(", ")
                )
            })
    }
}

/// The length unit of a file's coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Units {
    /// Metres.
    Metres,
    /// Centimetres.
    Centimetres,
    /// Millimetres.
    Millimetres,
}

impl Units {
    /// How many metres one unit is.
    pub fn metres_per_unit(self) -> f64 {
        match self {
            Units::Metres => 1.0,
            Units::Centimetres => 0.01,
            Units::Millimetres => 0.001,
        }
    }

    /// The unit's symbol, as `FromStr` takes it.
    pub fn symbol(self) -> &'static str {
        match self {
            Units::Metres => "m",
            Units::Centimetres => "cm",
            Units::Millimetres => "mm",
        }
    }

    /// The unit a word names (`m`, `metres`, `meter`, `cm`, `centimetres`, ...), if any.
    pub(crate) fn from_word(word: &str) -> Option<Units> {
        match word.to_ascii_lowercase().as_str() {
            "m" | "meter" | "meters" | "metre" | "metres" => Some(Units::Metres),
            "cm" | "centimeter" | "centimeters" | "centimetre" | "centimetres" => {
                Some(Units::Centimetres)
            }
            "mm" | "millimeter" | "millimeters" | "millimetre" | "millimetres" => {
                Some(Units::Millimetres)
            }
            _ => None,
        }
    }
}

impl fmt::Display for Units {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

impl FromStr for Units {
    type Err = String;

    /// Parses `m`, `cm` or `mm` (or the spelled-out names).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Units::from_word(s.trim())
            .ok_or_else(|| format!("unknown unit '{}' (expected m, cm or mm)", s.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::{Format, Units};

    #[test]
    fn names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.to_string().parse::<Format>(), Ok(f));
        }
        assert_eq!("ETH-UCY".parse::<Format>(), Ok(Format::EthUcy));
        assert!("eth".parse::<Format>().unwrap_err().contains("eth-ucy"));
        assert_eq!("cm".parse::<Units>(), Ok(Units::Centimetres));
        assert_eq!(Units::Millimetres.metres_per_unit(), 0.001);
        assert!("ft".parse::<Units>().is_err());
    }
}
