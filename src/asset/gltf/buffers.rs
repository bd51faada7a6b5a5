//! The bytes behind every buffer: the GLB BIN chunk, base64 data URIs, or files next to the
//! `.gltf` file; and bounds-checked slices of buffer views.

use std::borrow::Cow;
use std::path::Path;

use gltf::Document;
use gltf::buffer::Source;

use crate::asset::{ErrorKind, LoadError};

use super::context::Ctx;
use super::uri::{self, Target};

/// Every buffer's bytes, exactly `byteLength` long each.
pub(super) struct Buffers<'a> {
    data: Vec<Cow<'a, [u8]>>,
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
        for buffer in doc.buffers() {
            let section = format!("buffers[{}]", buffer.index());
            let declared = buffer.length();
            let bytes: Cow<'a, [u8]> = match buffer.source() {
                Source::Bin => Cow::Borrowed(bin.ok_or_else(|| {
                    ctx.error(
                        ErrorKind::Invalid,
                        section.as_str(),
                        "has no URI, but the file has no GLB BIN chunk",
                    )
                })?),
                Source::Uri(text) => match uri::parse(ctx, &section, text)? {
                    Target::Data(payload) => {
                        Cow::Owned(uri::decode_base64(ctx, &section, payload)?)
                    }
                    Target::File(relative) => {
                        let bytes =
                            uri::read_file(ctx, &section, base_dir, &relative, declared as u64)?;
                        ctx.add_input(bytes.len() as u64);
                        Cow::Owned(bytes)
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
                Cow::Borrowed(b) => Cow::Borrowed(&b[..declared]),
                Cow::Owned(mut b) => {
                    b.truncate(declared);
                    Cow::Owned(b)
                }
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
            .and_then(|end| buffer.get(offset..end))
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
