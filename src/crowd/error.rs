//! `RingError`: why a palette ring or the memory under it failed. Its own module, below
//! `region` and `ring`, so that both can name it while `ring` depends on `region` and not the
//! reverse.

use thiserror::Error;

/// Why a ring could not provide a slot.
#[derive(Debug, Error)]
pub enum RingError {
    /// The requested size overflows or exceeds what an allocation may be.
    #[error("a palette ring of {bytes} bytes is too large")]
    TooLarge {
        /// Bytes asked for (`usize::MAX` when the size itself overflowed).
        bytes: usize,
    },
    /// The allocator had no memory for it.
    #[error("out of memory allocating {bytes} bytes for the palette ring")]
    OutOfMemory {
        /// Bytes asked for.
        bytes: usize,
    },
    /// The consumer failed while waiting for a slot (a lost device, a timeout...).
    #[error("waiting for the consumer to release a slot: {0}")]
    Wait(String),
    /// A device allocator failed.
    #[error("allocating the palette ring: {0}")]
    Allocation(String),
    /// A ring needs at least one slot.
    #[error("a palette ring needs at least one slot")]
    NoSlots,
    /// The slot is smaller than what is written into it.
    #[error("the slot holds {capacity} {what}, {needed} are needed (reserve first)")]
    SlotTooSmall {
        /// `instance records` or `palette matrices`.
        what: &'static str,
        /// What the slot holds.
        capacity: usize,
        /// What the crowd writes.
        needed: usize,
    },
}
