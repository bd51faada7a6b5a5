//! The memory a palette ring lives in. Host memory serves tests and benchmarks; the renderer
//! provides persistently mapped GPU memory through the same two traits.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;

use super::error::RingError;

/// Alignment of every region and of every slot inside one: at least what Vulkan asks of
/// storage-buffer offsets on any device (`minStorageBufferOffsetAlignment` <= 256).
pub const REGION_ALIGN: usize = 256;

/// A block of writable memory that palette workers write into directly.
///
/// # Safety
///
/// Implementors promise that `as_mut_ptr()` points to `len()` initialized bytes aligned to
/// [`REGION_ALIGN`], valid until the region is dropped, and that nothing else writes them
/// while the ring hands out a slot of it (device reads are ordered by the ring's fences).
pub unsafe trait MappedRegion: Send + Sync {
    /// Start of the block.
    fn as_mut_ptr(&self) -> *mut u8;
    /// Size in bytes.
    fn len(&self) -> usize;
    /// Whether the block is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Makes regions for a ring (again, bigger, when the crowd outgrows the current one).
pub trait RegionAllocator {
    /// The region type.
    type Region: MappedRegion;
    /// A region of at least `bytes` bytes.
    fn allocate(&mut self, bytes: usize) -> Result<Self::Region, RingError>;

    /// What this allocator's regions and their consumer can take, checked before anything
    /// is allocated (default: no limit beyond the address space).
    fn limits(&self) -> RingLimits {
        RingLimits::NONE
    }
}

/// The largest ring a consumer can use: one region's bytes, and one slot's records or
/// palettes as one bound range (a GPU binds each as a storage buffer range).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingLimits {
    /// Bytes of one region (all slots together).
    pub region: usize,
    /// What bounds `region`, for the message (e.g. "host-visible memory heap").
    pub region_what: &'static str,
    /// Bytes of one slot's records, and of its palettes.
    pub range: usize,
    /// What bounds `range`, for the message.
    pub range_what: &'static str,
}

impl RingLimits {
    /// No limit beyond the address space.
    pub const NONE: Self = Self {
        region: isize::MAX as usize,
        region_what: "address space",
        range: isize::MAX as usize,
        range_what: "address space",
    };
}

/// Allocates zeroed host memory.
#[derive(Clone, Copy, Debug, Default)]
pub struct HostAllocator;

/// Zeroed, [`REGION_ALIGN`]-aligned host memory.
#[derive(Debug)]
pub struct HostRegion {
    ptr: NonNull<u8>,
    layout: Layout,
}

// SAFETY: HostRegion owns its allocation exclusively; the ring hands out disjoint slices.
unsafe impl Send for HostRegion {}
// SAFETY: shared access only reads the pointer value; writes go through the ring's &mut slots.
unsafe impl Sync for HostRegion {}

impl RegionAllocator for HostAllocator {
    type Region = HostRegion;

    fn allocate(&mut self, bytes: usize) -> Result<HostRegion, RingError> {
        let layout = Layout::from_size_align(bytes.max(REGION_ALIGN), REGION_ALIGN)
            .map_err(|_| RingError::TooLarge { bytes })?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        let ptr = NonNull::new(ptr).ok_or(RingError::OutOfMemory { bytes })?;
        Ok(HostRegion { ptr, layout })
    }
}

// SAFETY: the allocation is `layout.size()` zeroed bytes aligned to REGION_ALIGN, owned until
// drop.
unsafe impl MappedRegion for HostRegion {
    fn as_mut_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    fn len(&self) -> usize {
        self.layout.size()
    }
}

impl Drop for HostRegion {
    fn drop(&mut self) {
        // SAFETY: allocated in `HostAllocator::allocate` with this layout.
        unsafe { dealloc(self.ptr.as_ptr(), self.layout) }
    }
}
