//! The file as data: its header, then the top-level objects (frames with their meshes,
//! materials, animation sets, the tick rate), each read into plain structures. Templates and
//! objects throng does not use are skipped by brace matching.

use std::collections::HashMap;

use glam::Mat4;

use super::animation::{self, AnimationSet};
use super::materials::{self, NamedMaterials};
use super::matrix;
use super::mesh::{self, XMesh};
use super::reader::{Child, MAX_DEPTH, Reader, Result, show};
use crate::asset::{ErrorKind, LoadError};

/// How the refusal of binary and compressed files ends.
pub(super) const NEEDS_ASSIMP: &str = "is not read natively; build with --features assimp";

/// One `Frame`.
#[derive(Debug)]
pub(super) struct Frame {
    /// The frame's name (empty when it has none).
    pub name: String,
    /// The enclosing frame.
    pub parent: Option<usize>,
    /// `FrameTransformMatrix` in the column-vector convention (identity when absent).
    pub matrix: Mat4,
}

/// Everything the file says that throng uses.
#[derive(Debug, Default)]
pub(super) struct Document {
    /// Frames in file order (parents before children).
    pub frames: Vec<Frame>,
    /// Meshes in file order.
    pub meshes: Vec<XMesh>,
    /// Animation sets in file order.
    pub sets: Vec<AnimationSet>,
    /// `AnimTicksPerSecond`, if the file has one.
    pub ticks_per_second: Option<u32>,
    /// The first frame of each name (names are looked up once each, not searched).
    pub first_frame: HashMap<String, usize>,
}

impl Document {
    /// The first frame called `name`.
    pub fn frame_named(&self, name: &str) -> Option<usize> {
        self.first_frame.get(name).copied()
    }
}

/// Reads the header and every top-level object.
pub(super) fn read(file: &str, bytes: &[u8]) -> Result<Document> {
    let start = header(file, bytes)?;
    let mut r = Reader::new(file, bytes, start);
    let mut doc = Document::default();
    let mut named = NamedMaterials::new();
    while let Some(child) = r.top_level()? {
        match child {
            Child::Object { kind, name } => match kind {
                b"Frame" => frame(&mut r, &mut doc, &named, name, None, 1)?,
                b"Mesh" => {
                    let m = mesh::read(&mut r, name, None, &named)?;
                    doc.meshes.push(m);
                }
                b"Material" => {
                    let material = materials::read(&mut r, name)?;
                    if let Some(name) = name {
                        named.insert(name.to_vec(), material);
                    }
                }
                b"AnimationSet" => doc.sets.push(animation::read_set(&mut r, name)?),
                b"AnimTicksPerSecond" => ticks(&mut r, &mut doc)?,
                _ => r.skip_object()?,
            },
            // A reference at the top level instances nothing throng draws.
            Child::Reference(_) => {}
            Child::Close => {}
        }
    }
    for (f, frame) in doc.frames.iter().enumerate() {
        doc.first_frame.entry(frame.name.clone()).or_insert(f);
    }
    Ok(doc)
}

/// Checks the 16-byte header (`xof 0303txt 0032`) and returns where the body starts.
fn header(file: &str, bytes: &[u8]) -> Result<usize> {
    let fail =
        |kind, message: String| Err(LoadError::new(file, kind, message).in_section("header"));
    let Some(head) = bytes.get(..16) else {
        return fail(
            ErrorKind::Truncated,
            "the file is shorter than the 16-byte .x header".into(),
        );
    };
    if &head[..4] != b"xof " {
        return fail(
            ErrorKind::Syntax,
            format!(
                "expected 'xof ' at the start of a .x file, found '{}'",
                show(&head[..4])
            ),
        );
    }
    let version = &head[4..8];
    let format = &head[8..12];
    match format {
        b"txt " => {}
        b"bin " => {
            return fail(ErrorKind::Unsupported, format!("binary .x {NEEDS_ASSIMP}"));
        }
        b"tzip" | b"bzip" => {
            return fail(
                ErrorKind::Unsupported,
                format!("compressed .x {NEEDS_ASSIMP}"),
            );
        }
        other => {
            return fail(
                ErrorKind::Syntax,
                format!("unknown .x format '{}' in the header", show(other)),
            );
        }
    }
    if version != b"0302" && version != b"0303" {
        return fail(
            ErrorKind::Unsupported,
            format!(
                ".x version '{}' is not read (0302 and 0303 are)",
                show(version)
            ),
        );
    }
    if &head[12..16] != b"0032" && &head[12..16] != b"0064" {
        return fail(
            ErrorKind::Syntax,
            format!(
                "expected the float size 0032 or 0064 in the header, found '{}'",
                show(&head[12..16])
            ),
        );
    }
    Ok(16)
}

/// One `Frame` (its `{` consumed) and everything inside it.
fn frame(
    r: &mut Reader,
    doc: &mut Document,
    named: &NamedMaterials,
    name: Option<&[u8]>,
    parent: Option<usize>,
    depth: usize,
) -> Result<()> {
    let label = String::from_utf8_lossy(name.unwrap_or_default()).into_owned();
    let previous = r.enter(format!("Frame '{}'", label.escape_debug()));
    if depth > MAX_DEPTH {
        return Err(r.error(
            ErrorKind::TooLarge,
            format!("frames nest more than {MAX_DEPTH} deep"),
        ));
    }
    let index = doc.frames.len();
    doc.frames.push(Frame {
        name: label,
        parent,
        matrix: Mat4::IDENTITY,
    });
    let mut has_matrix = false;
    loop {
        match r.child()? {
            Child::Close => break,
            Child::Reference(_) => {}
            Child::Object { kind, name } => match kind {
                b"FrameTransformMatrix" => {
                    if has_matrix {
                        return Err(r.error(
                            ErrorKind::Invalid,
                            "the frame has a second FrameTransformMatrix",
                        ));
                    }
                    has_matrix = true;
                    let m = matrix::read(r)?;
                    r.close()?;
                    if let Some(f) = doc.frames.get_mut(index) {
                        f.matrix = m;
                    }
                }
                b"Frame" => frame(r, doc, named, name, Some(index), depth + 1)?,
                b"Mesh" => {
                    let m = mesh::read(r, name, Some(index), named)?;
                    doc.meshes.push(m);
                }
                _ => r.skip_object()?,
            },
        }
    }
    r.leave(previous);
    Ok(())
}

/// `AnimTicksPerSecond { n; }`: one rate per file (several objects must agree).
fn ticks(r: &mut Reader, doc: &mut Document) -> Result<()> {
    let previous = r.enter("AnimTicksPerSecond".into());
    let rate = r.u32()?;
    if rate == 0 {
        return Err(r.error(ErrorKind::Invalid, "the tick rate is 0"));
    }
    if let Some(earlier) = doc.ticks_per_second.filter(|&e| e != rate) {
        return Err(r.error(
            ErrorKind::Unsupported,
            format!("{rate} ticks per second differs from the earlier {earlier}; one rate per file is read"),
        ));
    }
    doc.ticks_per_second = Some(rate);
    r.close()?;
    r.leave(previous);
    Ok(())
}
