//! `AnimationSet`, `Animation` and `AnimationKey`, read into plain key lists.
//!
//! An `Animation` names the frame it drives with a reference `{ Name }` and holds one
//! `AnimationKey` per kind: 0 rotation (`w x y z`), 1 scale, 2 position, 4 matrix (3 is read
//! as 4, as some exporters write it). Times are ticks, strictly increasing within a key list.

use super::reader::{Child, Reader, Result, show};
use crate::asset::ErrorKind;

/// Fewest bytes of text a number takes (one digit and a separator).
const NUMBER_BYTES: usize = 2;

/// How far a matrix key's last column may be from `(0, 0, 0, 1)`.
const AFFINE_TOLERANCE: f32 = 1e-4;

/// What an `AnimationKey` animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum KeyKind {
    /// Type 0: a quaternion `w x y z`.
    Rotation,
    /// Type 1: `x y z`.
    Scale,
    /// Type 2: `x y z`.
    Position,
    /// Type 4 (or 3): a 4x4 matrix in the file's row-vector layout.
    Matrix,
}

impl KeyKind {
    fn from_type(t: u32) -> Option<Self> {
        match t {
            0 => Some(Self::Rotation),
            1 => Some(Self::Scale),
            2 => Some(Self::Position),
            3 | 4 => Some(Self::Matrix),
            _ => None,
        }
    }

    /// Numbers per key.
    pub fn width(self) -> usize {
        match self {
            Self::Rotation => 4,
            Self::Scale | Self::Position => 3,
            Self::Matrix => 16,
        }
    }
}

/// One `AnimationKey`.
#[derive(Debug)]
pub(super) struct Keys {
    /// The kind of every key.
    pub kind: KeyKind,
    /// Key times in ticks, strictly increasing.
    pub times: Vec<f32>,
    /// `kind.width()` numbers per key, as written.
    pub values: Vec<f32>,
}

/// One `Animation`: the frame it drives and its key lists.
#[derive(Debug)]
pub(super) struct XAnimation {
    /// The name in its `{ Name }` reference.
    pub target: String,
    /// Its `AnimationKey`s in file order.
    pub keys: Vec<Keys>,
    /// How errors found later name it.
    pub section: String,
}

/// One `AnimationSet`.
#[derive(Debug)]
pub(super) struct AnimationSet {
    /// The set's name, if it has one.
    pub name: Option<String>,
    /// Its animations in file order.
    pub animations: Vec<XAnimation>,
}

/// Reads an `AnimationSet` whose `{` is consumed, through its `}`.
pub(super) fn read_set(r: &mut Reader, name: Option<&[u8]>) -> Result<AnimationSet> {
    let name = name.map(|n| String::from_utf8_lossy(n).into_owned());
    let section = format!(
        "AnimationSet '{}'",
        name.as_deref().unwrap_or_default().escape_debug()
    );
    let previous = r.enter(section.clone());
    let mut animations = Vec::new();
    loop {
        match r.child()? {
            Child::Close => break,
            Child::Reference(_) => {}
            Child::Object {
                kind: b"Animation",
                name,
            } => {
                let a = animation(r, &section, name)?;
                animations.push(a);
            }
            Child::Object { .. } => r.skip_object()?,
        }
    }
    r.leave(previous);
    Ok(AnimationSet { name, animations })
}

/// One `Animation` (its `{` consumed), through its `}`.
fn animation(r: &mut Reader, set: &str, name: Option<&[u8]>) -> Result<XAnimation> {
    let own = String::from_utf8_lossy(name.unwrap_or_default()).into_owned();
    let section = format!("{set} > Animation '{}'", own.escape_debug());
    let previous = r.enter(section.clone());
    let mut target: Option<String> = None;
    let mut keys = Vec::new();
    loop {
        match r.child()? {
            Child::Close => break,
            Child::Reference(frame) => {
                if target.is_some() {
                    return Err(r.error(
                        ErrorKind::Invalid,
                        format!(
                            "a second frame reference '{{ {} }}'; an Animation drives one frame",
                            show(frame)
                        ),
                    ));
                }
                target = Some(String::from_utf8_lossy(frame).into_owned());
            }
            Child::Object {
                kind: b"AnimationKey",
                ..
            } => keys.push(key_list(r)?),
            Child::Object { .. } => r.skip_object()?,
        }
    }
    let Some(target) = target else {
        return Err(r.error(
            ErrorKind::Invalid,
            "the Animation names no frame (it has no '{ Name }' reference)",
        ));
    };
    r.leave(previous);
    Ok(XAnimation {
        section: format!("{set} > Animation of '{}'", target.escape_debug()),
        target,
        keys,
    })
}

/// One `AnimationKey` (its `{` consumed), through its `}`.
fn key_list(r: &mut Reader) -> Result<Keys> {
    let t = r.u32()?;
    let Some(kind) = KeyKind::from_type(t) else {
        return Err(r.error(
            ErrorKind::Unsupported,
            format!("key type {t} is not one of 0 (rotation), 1 (scale), 2 (position), 4 (matrix)"),
        ));
    };
    let width = kind.width();
    let n = r.count("keys", (width + 2) * NUMBER_BYTES)?;
    let mut times = Vec::with_capacity(n);
    let mut values = Vec::with_capacity(n * width);
    for k in 0..n {
        let time = r.u32()? as f32;
        if let Some(&before) = times.last().filter(|&&b| time <= b) {
            return Err(r.error(
                ErrorKind::Invalid,
                format!("key {k} at tick {time} does not come after the previous key's {before}"),
            ));
        }
        let count = r.u32()?;
        if count as usize != width {
            return Err(r.error(
                ErrorKind::CountMismatch,
                format!("key {k} has {count} values; a key of type {t} has {width}"),
            ));
        }
        let start = values.len();
        for _ in 0..width {
            values.push(r.f32()?);
        }
        let key = values.get(start..).unwrap_or_default();
        check_key(r, kind, k, key)?;
        times.push(time);
    }
    r.close()?;
    Ok(Keys {
        kind,
        times,
        values,
    })
}

/// Refuses a rotation of length 0 and a projective matrix.
fn check_key(r: &Reader, kind: KeyKind, k: usize, key: &[f32]) -> Result<()> {
    match kind {
        KeyKind::Rotation => {
            let length = key.iter().map(|v| v * v).sum::<f32>().sqrt();
            if !(length > 1e-6 && length.is_finite()) {
                return Err(r.error(
                    ErrorKind::Invalid,
                    format!("key {k}: the rotation quaternion has length {length}"),
                ));
            }
        }
        KeyKind::Matrix => {
            let last = [3, 7, 11, 15].map(|i| key.get(i).copied().unwrap_or(0.0));
            let affine = last
                .iter()
                .zip([0.0, 0.0, 0.0, 1.0])
                .all(|(v, want)| (v - want).abs() <= AFFINE_TOLERANCE);
            if !affine {
                return Err(r.error(
                    ErrorKind::Unsupported,
                    format!("key {k}: the matrix is projective: its last column is {last:?}"),
                ));
            }
        }
        KeyKind::Scale | KeyKind::Position => {}
    }
    Ok(())
}
