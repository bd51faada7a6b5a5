//! Why a crowd operation failed: `RingError` for a palette ring or the memory under it,
//! `CrowdError` for the crowd itself. Their own module, needing nothing of `crowd` but
//! `record`'s model limit, so that every room can name them while `ring` depends on `region`
//! and not the reverse, and the crowd's rooms depend on one another one way.

use thiserror::Error;

use super::record::{MAX_LOOKS, MAX_MODELS};

/// Why a crowd operation failed.
#[derive(Debug, Error)]
pub enum CrowdError {
    /// The thread pool could not be started.
    #[error("starting {threads} worker threads: {message}")]
    Pool {
        /// Threads asked for.
        threads: usize,
        /// Why the pool could not be built.
        message: String,
    },
    /// A model id that was never added.
    #[error("model {0} was never added to this crowd")]
    UnknownModel(usize),
    /// More palette entries than a 32-bit palette base can address.
    #[error("the crowd would need {0} palette matrices; at most 4294967295 are addressable")]
    TooManyJoints(usize),
    /// More models than an instance record can name.
    #[error("a crowd holds at most {MAX_MODELS} models")]
    TooManyModels,
    /// An instance index the crowd does not have.
    #[error("the crowd has no instance {0}")]
    UnknownInstance(usize),
    /// A look id the crowd never handed out.
    #[error("look {0} was never added to this crowd")]
    UnknownLook(u32),
    /// A look with a tint that is not a finite, non-negative number.
    #[error("a look's tints must be finite and not negative")]
    BadLook,
    /// More looks than an instance record can name.
    #[error("a crowd holds at most {MAX_LOOKS} looks")]
    TooManyLooks,
    /// The ring could not provide or hold the frame.
    #[error(transparent)]
    Ring(#[from] RingError),
    /// An instance was asked to play a clip its model does not have.
    #[error(transparent)]
    Anim(#[from] crate::anim::AnimError),
}

/// Why a ring could not provide a slot.
#[derive(Debug, Error)]
pub enum RingError {
    /// The requested size overflows or exceeds what an allocation may be.
    #[error("a palette ring of {bytes} bytes is too large")]
    TooLarge {
        /// Bytes asked for (`usize::MAX` when the size itself overflowed).
        bytes: usize,
    },
    /// The ring a crowd needs is more than its allocator's limits allow (checked before
    /// allocating).
    #[error(
        "{instances} instances with {joints} palette matrices need {what} of {needed_mb:.1} MB, more than the {limit_mb:.1} MB of the device's {limit_what}"
    )]
    ExceedsLimit {
        /// Instances per frame.
        instances: usize,
        /// Palette matrices per frame.
        joints: usize,
        /// What is too large ("a palette ring", "a frame's palettes", ...).
        what: String,
        /// Megabytes it needs.
        needed_mb: f64,
        /// Megabytes the limit allows.
        limit_mb: f64,
        /// What sets the limit.
        limit_what: &'static str,
    },
    /// The allocator had no memory for it.
    #[error("out of memory allocating {bytes} bytes for the palette ring")]
    OutOfMemory {
        /// Bytes asked for.
        bytes: usize,
    },
    /// The consumer failed while waiting for a slot (a lost device, a timeout...); the
    /// consumer's own error is the source.
    #[error("waiting for the consumer to release a slot: {0}")]
    Wait(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A device allocator failed; its own error is the source.
    #[error("allocating the palette ring: {0}")]
    Allocation(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The allocator returned a region smaller than asked for or not aligned as promised.
    #[error(
        "the allocator returned {len} bytes at {address:#x}; {bytes} bytes aligned to {align} are needed"
    )]
    BadRegion {
        /// Bytes in the region returned.
        len: usize,
        /// Where it starts.
        address: usize,
        /// Bytes asked for.
        bytes: usize,
        /// Alignment required.
        align: usize,
    },
    /// [`PaletteRing::submit`](super::PaletteRing::submit) named a slot the ring has not
    /// handed out since its region was last replaced (or that does not exist).
    #[error("slot {index} was not handed out by this ring (it has {slots} slots)")]
    NotHandedOut {
        /// The index submitted.
        index: usize,
        /// Slots in the ring.
        slots: usize,
    },
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
