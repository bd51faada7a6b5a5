//! The vertex and index buffer tables. Each vertex buffer header (288 bytes) is `NumVertices`,
//! `SizeBytes`, `StrideBytes` (u64), its 32-element vertex declaration, and the absolute
//! offset of its data (u64); each index buffer header (32 bytes) is `NumIndices`, `SizeBytes`
//! (u64), `IndexType` (u32: 0 for 16-bit, 1 for 32-bit, padded) and the data offset. Both are
//! checked here against the file so that later stages only index inside them.

use super::bytes::{Bytes, Result, u32_at, u64_at};
use super::declaration::{self, Declaration, ELEMENT_SIZE, MAX_ELEMENTS};
use super::header::Table;
use crate::asset::ErrorKind;

/// Size of a vertex buffer header on disk.
const VERTEX_HEADER_SIZE: usize = 288;
/// Size of an index buffer header on disk.
const INDEX_HEADER_SIZE: usize = 32;
/// Where the declaration starts in a vertex buffer header.
const DECLARATION_AT: usize = 24;

/// A vertex buffer: its declared layout and its bytes (exactly `count * stride`).
pub(super) struct VertexBuffer<'a> {
    pub(super) count: usize,
    pub(super) stride: usize,
    pub(super) declaration: Declaration,
    pub(super) data: &'a [u8],
}

impl VertexBuffer<'_> {
    /// The bytes of vertex `v` (empty past the end, which callers rule out first).
    pub(super) fn vertex(&self, v: usize) -> &[u8] {
        let start = v.saturating_mul(self.stride);
        self.data
            .get(start..start.saturating_add(self.stride))
            .unwrap_or(&[])
    }
}

/// An index buffer: its bytes and index width.
pub(super) struct IndexBuffer<'a> {
    pub(super) count: usize,
    wide: bool,
    data: &'a [u8],
}

impl IndexBuffer<'_> {
    /// Index `i` (0 past the end, which callers rule out first).
    pub(super) fn get(&self, i: usize) -> u32 {
        if self.wide {
            u32_at(self.data, i.saturating_mul(4))
        } else {
            u32::from(super::bytes::u16_at(self.data, i.saturating_mul(2)))
        }
    }
}

/// Reads the vertex buffer headers and locates their data.
pub(super) fn read_vertex_buffers<'a>(
    b: &Bytes<'a>,
    table: Table,
) -> Result<Vec<VertexBuffer<'a>>> {
    let section = super::VERTEX_BUFFERS;
    let headers = b.table(
        section,
        table.offset,
        u64::from(table.count),
        VERTEX_HEADER_SIZE,
        "vertex buffer headers",
    )?;
    let mut buffers = Vec::with_capacity(table.count as usize);
    for (i, h) in headers.chunks_exact(VERTEX_HEADER_SIZE).enumerate() {
        let record = format!("vertex buffer {i}");
        let fail = |kind, why: String| b.error(section, kind, why).at_record(record.clone());
        let (count, size, stride) = (u64_at(h, 0), u64_at(h, 8), u64_at(h, 16));
        let decl_bytes = h
            .get(DECLARATION_AT..DECLARATION_AT + MAX_ELEMENTS * ELEMENT_SIZE)
            .unwrap_or(&[]);
        let offset = u64_at(h, DECLARATION_AT + MAX_ELEMENTS * ELEMENT_SIZE);
        if stride == 0 || stride > u64::from(u16::MAX) {
            return Err(fail(
                ErrorKind::Invalid,
                format!("a stride of {stride} bytes (expected 1 to 65535)"),
            ));
        }
        let declaration =
            declaration::parse(decl_bytes, stride).map_err(|why| fail(ErrorKind::Invalid, why))?;
        if count.checked_mul(stride) != Some(size) {
            return Err(fail(
                ErrorKind::CountMismatch,
                format!("{count} vertices of {stride} bytes do not make the declared {size} bytes"),
            ));
        }
        let data = b
            .table(section, offset, count, stride as usize, "vertices")
            .map_err(|e| e.at_record(record.clone()))?;
        buffers.push(VertexBuffer {
            count: count as usize,
            stride: stride as usize,
            declaration,
            data,
        });
    }
    Ok(buffers)
}

/// Reads the index buffer headers and locates their data.
pub(super) fn read_index_buffers<'a>(b: &Bytes<'a>, table: Table) -> Result<Vec<IndexBuffer<'a>>> {
    let section = super::INDEX_BUFFERS;
    let headers = b.table(
        section,
        table.offset,
        u64::from(table.count),
        INDEX_HEADER_SIZE,
        "index buffer headers",
    )?;
    let mut buffers = Vec::with_capacity(table.count as usize);
    for (i, h) in headers.chunks_exact(INDEX_HEADER_SIZE).enumerate() {
        let record = format!("index buffer {i}");
        let fail = |kind, why: String| b.error(section, kind, why).at_record(record.clone());
        let (count, size, index_type, offset) =
            (u64_at(h, 0), u64_at(h, 8), u32_at(h, 16), u64_at(h, 24));
        let width: usize = match index_type {
            0 => 2,
            1 => 4,
            t => {
                return Err(fail(
                    ErrorKind::Unsupported,
                    format!("index type {t}; only 0 (16-bit) and 1 (32-bit) exist"),
                ));
            }
        };
        if count.checked_mul(width as u64) != Some(size) {
            return Err(fail(
                ErrorKind::CountMismatch,
                format!("{count} indices of {width} bytes do not make the declared {size} bytes"),
            ));
        }
        let data = b
            .table(section, offset, count, width, "indices")
            .map_err(|e| e.at_record(record.clone()))?;
        buffers.push(IndexBuffer {
            count: count as usize,
            wide: width == 4,
            data,
        });
    }
    Ok(buffers)
}
