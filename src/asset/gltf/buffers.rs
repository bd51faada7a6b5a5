//! The bytes behind every buffer: the GLB BIN chunk, base64 data URIs, or files next to the
//! `.gltf` file; and bounds-checked slices of buffer views.
//!
//! A file named by several buffers is read once and shared: otherwise a few bytes of JSON
//! (ten thousand buffers naming one large file) would hold the file ten thousand times.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use gltf::Document;
use gltf::buffer::Source;

use crate::asset::{ErrorKind, LoadError, source};

use super::context::Ctx;
use super::uri::{self, Target};

/// Every buffer's bytes, exactly `byteLength` long each.
pub(super) struct Buffers<'a> {
    data: Vec<Bytes<'a>>,
}

/// One buffer's bytes: borrowed from the GLB, decoded from a data URI, or a prefix of a file
/// that other buffers may share.
enum Bytes<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
    Shared(Rc<Vec<u8>>, usize),
}

impl Bytes<'_> {
    fn len(&self) -> usize {
        match self {
            Self::Borrowed(b) => b.len(),
            Self::Owned(b) => b.len(),
            Self::Shared(_, len) => *len,
        }
    }

    fn as_slice(&self) -> &[u8] {
        match self {
            Self::Borrowed(b) => b,
            Self::Owned(b) => b,
            Self::Shared(file, len) => file.get(..*len).unwrap_or(file),
        }
    }
}

impl<'a> Buffers<'a> {
    /// Loads every buffer of `doc`. A buffer shorter than its declared `byteLength` is an
    /// error (the accessors that read it would run past its end).
    pub fn load(
        ctx: &mut Ctx,
        doc: &Document,
        bin: Option<&'a [u8]>,
        base_dir: Option<&Path>,
    ) -> Result<Self, LoadError> {
        let mut data = Vec::with_capacity(doc.buffers().len());
        let mut files: HashMap<PathBuf, Rc<Vec<u8>>> = HashMap::new();
        for buffer in doc.buffers() {
            let section = format!("buffers[{}]", buffer.index());
            let declared = buffer.length();
            let bytes = match buffer.source() {
                Source::Bin => Bytes::Borrowed(bin.ok_or_else(|| {
                    ctx.error(
                        ErrorKind::Invalid,
                        section.as_str(),
                        "has no URI, but the file has no GLB BIN chunk",
                    )
                })?),
                Source::Uri(text) => match uri::parse(ctx, &section, text)? {
                    Target::Data(payload) => {
                        Bytes::Owned(uri::decode_base64(ctx, &section, payload)?)
                    }
                    Target::File(relative) => {
                        // The same file under another name (`a.bin`, `./a.bin`) is the same
                        // file: its resolved path is the key. A path the policy refuses has
                        // no key; reading it gives the error.
                        let key = base_dir
                            .and_then(|base| source::resolve_referenced(base, &relative).ok());
                        match key.as_ref().and_then(|k| files.get(k)) {
                            Some(file) => Bytes::Shared(Rc::clone(file), file.len()),
                            None => {
                                let bytes = uri::read_file(
                                    ctx,
                                    &section,
                                    base_dir,
                                    &relative,
                                    declared as u64,
                                )?;
                                ctx.add_input(bytes.len() as u64);
                                let file = Rc::new(bytes);
                                if let Some(key) = key {
                                    files.insert(key, Rc::clone(&file));
                                }
                                Bytes::Shared(Rc::clone(&file), file.len())
                            }
                        }
                    }
                },
            };
            if bytes.len() < declared {
                return Err(ctx.error(
                    ErrorKind::Truncated,
                    section,
                    format!(
                        "byteLength is {declared}, but its data has only {} bytes",
                        bytes.len()
                    ),
                ));
            }
            data.push(match bytes {
                Bytes::Borrowed(b) => Bytes::Borrowed(&b[..declared]),
                Bytes::Owned(mut b) => {
                    b.truncate(declared);
                    Bytes::Owned(b)
                }
                Bytes::Shared(file, _) => Bytes::Shared(file, declared),
            });
        }
        Ok(Self { data })
    }

    /// The bytes of buffer view `view` (checked against its buffer).
    pub fn view(&self, ctx: &Ctx, view: &gltf::buffer::View) -> Result<&[u8], LoadError> {
        let buffer = self.data.get(view.buffer().index()).ok_or_else(|| {
            ctx.error(
                ErrorKind::IndexOutOfRange,
                format!("bufferViews[{}]", view.index()),
                "buffer does not exist",
            )
        })?;
        let (offset, length) = (view.offset(), view.length());
        offset
            .checked_add(length)
            .and_then(|end| buffer.as_slice().get(offset..end))
            .ok_or_else(|| {
                ctx.error(
                    ErrorKind::IndexOutOfRange,
                    format!("bufferViews[{}]", view.index()),
                    format!(
                        "bytes {offset}..{} are outside buffer {} ({} bytes)",
                        offset as u128 + length as u128,
                        view.buffer().index(),
                        buffer.len()
                    ),
                )
            })
    }
}
