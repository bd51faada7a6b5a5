//! The memory ufbx may use, held to the load's budget by ufbx's own allocator hooks.
//!
//! ufbx allocates through two allocators per load: a temporary one (freed when the load ends)
//! and the result one (the scene, freed with it). Both are given the hooks below, which share
//! one [`Pool`]: an allocation that would take the bytes both hold at that moment past the
//! pool's limit gets a null pointer, ufbx stops with an out-of-memory error, and the load is
//! refused before the memory exists. ufbx's own `memory_limit` is set to the same limit as a
//! second guard, checked inside ufbx before it even calls a hook. The bytes come from Rust's
//! global allocator, so whatever measures the program's heap (the tests' counting allocator)
//! sees ufbx's memory too.
//!
//! The `ufbx` crate's safe `Allocator::Box` is not used: it hands ufbx a pointer to a
//! temporary reference where its hooks expect the box itself (0.11.5). The raw hooks here
//! take an `Arc<Pool>` each and release it when ufbx frees its allocator.

use std::alloc::{Layout, alloc, dealloc, realloc};
use std::ffi::c_void;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use ufbx::{AllocatorOpts, RawAllocator, Unsafe};

/// The alignment ufbx asks of every allocation (`UFBX_MAXIMUM_ALIGNMENT` on 64-bit targets).
const ALIGN: usize = 8;

/// Bytes ufbx's allocators of one load hold, against one limit.
#[derive(Debug)]
pub(super) struct Pool {
    limit: u64,
    live: AtomicU64,
    peak: AtomicU64,
}

impl Pool {
    /// A pool that refuses to hold more than `limit` bytes at once.
    pub fn new(limit: u64) -> Arc<Self> {
        Arc::new(Self {
            limit,
            live: AtomicU64::new(0),
            peak: AtomicU64::new(0),
        })
    }

    /// The bytes held now (after a load: the scene's).
    pub fn live(&self) -> u64 {
        self.live.load(Ordering::Relaxed)
    }

    /// The most held at once.
    pub fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }

    /// Reserves `bytes`, or says no when that would pass the limit.
    fn take(&self, bytes: u64) -> bool {
        let before = self.live.fetch_add(bytes, Ordering::Relaxed);
        let after = before.saturating_add(bytes);
        if after > self.limit {
            self.live.fetch_sub(bytes, Ordering::Relaxed);
            return false;
        }
        self.peak.fetch_max(after, Ordering::Relaxed);
        true
    }

    /// Gives back `bytes` reserved earlier.
    fn give(&self, bytes: u64) {
        self.live.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// Allocator options for one of ufbx's allocators drawing on `pool`.
pub(super) fn options(pool: &Arc<Pool>) -> AllocatorOpts {
    let raw = RawAllocator {
        alloc_fn: Some(pool_alloc),
        realloc_fn: Some(pool_realloc),
        free_fn: Some(pool_free),
        free_allocator_fn: Some(pool_release),
        user: Arc::into_raw(Arc::clone(pool)).cast_mut().cast::<c_void>(),
    };
    AllocatorOpts {
        // SAFETY: the hooks below match ufbx's allocator contract (sizes as ufbx passes them
        // back, 8-byte alignment, null on refusal) and `user` is an `Arc<Pool>` that
        // `pool_release` drops once, when ufbx frees the allocator.
        allocator: ufbx::Allocator::Raw(unsafe { Unsafe::new(raw) }),
        memory_limit: usize::try_from(pool.limit).unwrap_or(usize::MAX),
        allocation_limit: 0,
        huge_threshold: 0,
        max_chunk_size: 0,
    }
}

/// The pool behind a hook's `user` pointer.
///
/// # Safety
/// `user` must come from [`options`] and not yet have been released.
unsafe fn pool<'a>(user: *mut c_void) -> &'a Pool {
    // SAFETY: per the contract, `user` is a live `Arc<Pool>`'s pointer.
    unsafe { &*user.cast_const().cast::<Pool>() }
}

fn layout(size: usize) -> Option<Layout> {
    Layout::from_size_align(size, ALIGN).ok()
}

/// ufbx's `alloc_fn`: `size` bytes, or null when the pool or the system says no. ufbx never
/// asks for zero bytes (it has a static buffer for empty arrays); a zero request gets null.
unsafe extern "C" fn pool_alloc(user: *mut c_void, size: usize) -> *mut c_void {
    // SAFETY: ufbx passes back the `user` of `options`.
    let pool = unsafe { pool(user) };
    let Some(layout) = layout(size).filter(|_| size > 0) else {
        return std::ptr::null_mut();
    };
    if !pool.take(size as u64) {
        return std::ptr::null_mut();
    }
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { alloc(layout) };
    if ptr.is_null() {
        pool.give(size as u64);
    }
    ptr.cast()
}

/// ufbx's `realloc_fn`: ufbx calls it with both sizes non-zero (it turns the other cases into
/// `alloc_fn` and `free_fn`) and with the size it allocated `ptr` with.
unsafe extern "C" fn pool_realloc(
    user: *mut c_void,
    ptr: *mut c_void,
    old_size: usize,
    new_size: usize,
) -> *mut c_void {
    // SAFETY: ufbx passes back the `user` of `options`.
    let pool = unsafe { pool(user) };
    let (Some(old), Some(_)) = (layout(old_size), layout(new_size)) else {
        return std::ptr::null_mut();
    };
    if ptr.is_null() || old_size == 0 || new_size == 0 {
        return std::ptr::null_mut();
    }
    let grow = (new_size as u64).saturating_sub(old_size as u64);
    if !pool.take(grow) {
        return std::ptr::null_mut();
    }
    // SAFETY: `ptr` was allocated here with `old` (ufbx passes its size back), and the new
    // size is non-zero and valid for the alignment.
    let moved = unsafe { realloc(ptr.cast(), old, new_size) };
    if moved.is_null() {
        pool.give(grow);
    } else {
        pool.give((old_size as u64).saturating_sub(new_size as u64));
    }
    moved.cast()
}

/// ufbx's `free_fn`, with the size the block was allocated with.
unsafe extern "C" fn pool_free(user: *mut c_void, ptr: *mut c_void, size: usize) {
    // SAFETY: ufbx passes back the `user` of `options`.
    let pool = unsafe { pool(user) };
    if ptr.is_null() || size == 0 {
        return;
    }
    if let Some(layout) = layout(size) {
        // SAFETY: `ptr` was allocated here with this size and alignment.
        unsafe { dealloc(ptr.cast(), layout) };
        pool.give(size as u64);
    }
}

/// ufbx's `free_allocator_fn`: the allocator is done; its reference to the pool goes.
unsafe extern "C" fn pool_release(user: *mut c_void) {
    if !user.is_null() {
        // SAFETY: `user` came from `Arc::into_raw` in `options`, and ufbx frees each
        // allocator once.
        drop(unsafe { Arc::from_raw(user.cast_const().cast::<Pool>()) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_refuses_what_would_pass_its_limit_and_counts_the_rest() {
        let pool = Pool::new(100);
        let user = Arc::as_ptr(&pool).cast_mut().cast::<c_void>();
        // SAFETY: `user` points to `pool`, alive for the whole test; blocks are freed with
        // the sizes they were allocated with.
        unsafe {
            let a = pool_alloc(user, 60);
            assert!(!a.is_null());
            assert!(pool_alloc(user, 41).is_null(), "60 + 41 > 100");
            let a = pool_realloc(user, a, 60, 90);
            assert!(!a.is_null());
            assert_eq!((pool.live(), pool.peak()), (90, 90));
            assert!(
                pool_realloc(user, a, 90, 101).is_null(),
                "growing past the limit"
            );
            let a = pool_realloc(user, a, 90, 10);
            assert_eq!(pool.live(), 10);
            pool_free(user, a, 10);
        }
        assert_eq!((pool.live(), pool.peak()), (0, 90));
    }
}
