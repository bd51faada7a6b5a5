//! The temporary file a store's samples go to when memory should not hold them: created in
//! the system's temporary folder (`TMPDIR`) and unlinked at once, so that it disappears with
//! the store, whatever ends the program.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Mutex;

use super::chunks::{Block, StoredSample};

/// See the module documentation.
#[derive(Debug)]
pub(crate) struct Spill {
    /// Reads go through `&self` (a store is read while shared); one at a time.
    file: Mutex<File>,
    len: u64,
}

impl Spill {
    /// A new, empty, already unlinked file in `dir`.
    pub(crate) fn create(dir: &Path) -> io::Result<Self> {
        let pid = std::process::id();
        for n in 0..1000u32 {
            let path = dir.join(format!("throng-samples-{pid}-{n}"));
            match OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => {
                    // Unlinked while open: the data lives until the file is closed.
                    std::fs::remove_file(&path)?;
                    return Ok(Self {
                        file: Mutex::new(file),
                        len: 0,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free name for a temporary file",
        ))
    }

    /// Bytes written.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Appends `records` (at most `u32::MAX` of them) as one block.
    pub(crate) fn append(&mut self, records: &[StoredSample]) -> io::Result<Block> {
        let count = u32::try_from(records.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "block too large"))?;
        let bytes: &[u8] = bytemuck::cast_slice(records);
        let file = self
            .file
            .get_mut()
            .map_err(|_| io::Error::other("a reader panicked"))?;
        file.seek(SeekFrom::Start(self.len))?;
        file.write_all(bytes)?;
        let block = Block {
            offset: self.len,
            count,
        };
        self.len += bytes.len() as u64;
        Ok(block)
    }

    /// Appends `block`'s records to `out`.
    pub(crate) fn read(&self, block: &Block, out: &mut Vec<StoredSample>) -> io::Result<()> {
        let start = out.len();
        out.resize(start + block.count as usize, StoredSample::default());
        let mut file = self
            .file
            .lock()
            .map_err(|_| io::Error::other("a reader panicked"))?;
        file.seek(SeekFrom::Start(block.offset))?;
        let read = file.read_exact(bytemuck::cast_slice_mut(&mut out[start..]));
        if read.is_err() {
            out.truncate(start);
        }
        read
    }
}
