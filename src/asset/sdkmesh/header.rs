//! The 104-byte file header: version, byte order, the six table counts and their offsets.
//!
//! Layout (the C struct with 8-byte packing): `Version u32`, `IsBigEndian u8` (padded to 8),
//! `HeaderSize`, `NonBufferDataSize`, `BufferDataSize` (u64, not needed: every table is
//! located by its own offset), then the counts of vertex buffers, index buffers, meshes,
//! subsets, frames and materials (u32), then the offsets of their tables (u64).

use super::bytes::{Bytes, Result, u8_at, u32_at, u64_at};
use crate::asset::ErrorKind;

/// Size of the header on disk.
pub(super) const SIZE: usize = 104;

/// The only version written by the SDK's exporters and read by its loaders.
pub(super) const VERSION: u32 = 101;

/// A table of the file: where it starts and how many records it has.
#[derive(Clone, Copy, Debug)]
pub(super) struct Table {
    pub(super) offset: u64,
    pub(super) count: u32,
}

/// The header's counts and offsets.
#[derive(Clone, Copy, Debug)]
pub(super) struct Header {
    pub(super) vertex_buffers: Table,
    pub(super) index_buffers: Table,
    pub(super) meshes: Table,
    pub(super) subsets: Table,
    pub(super) frames: Table,
    pub(super) materials: Table,
}

/// Reads and checks the header.
pub(super) fn read(b: &Bytes) -> Result<Header> {
    let h = b.table(super::HEADER, 0, 1, SIZE, "header")?;
    let version = u32_at(h, 0);
    if version != VERSION {
        return Err(b.error(
            super::HEADER,
            ErrorKind::Unsupported,
            format!("version {version}; only SDKMESH version {VERSION} is read"),
        ));
    }
    if u8_at(h, 4) != 0 {
        return Err(b.error(
            super::HEADER,
            ErrorKind::Unsupported,
            "the file is big-endian; only little-endian files are read",
        ));
    }
    let table = |i: usize| Table {
        count: u32_at(h, 32 + 4 * i),
        offset: u64_at(h, 56 + 8 * i),
    };
    Ok(Header {
        vertex_buffers: table(0),
        index_buffers: table(1),
        meshes: table(2),
        subsets: table(3),
        frames: table(4),
        materials: table(5),
    })
}
