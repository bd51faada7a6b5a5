//! A global allocator that counts live heap bytes and their peak, for tests that check a
//! load stays within its memory budget (`asset::budget`), and allocation calls, for tests that
//! check a frame allocates nothing.
//!
//! Each test binary that uses it includes this file with
//! `#[path = "common/counting_alloc.rs"] mod counting_alloc;` and installs it with its own
//! one-line `#[global_allocator] static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;`
//! (a global allocator is per binary). Measurements hold [`serial`]: the counters are global,
//! so another test's allocations would otherwise land in this one's peak.
//!
//! Allocation calls are counted in every thread but the process's first: that is the test
//! harness's, which allocates whenever it reports (a test that finished, or one "running for
//! over 60 seconds", which a test waiting on [`serial`] soon is), and no code under test runs
//! there (libtest runs each test on a thread of its own; [`allocations`] checks it).
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Forwards to the system allocator and counts live heap bytes and their peak since the last
/// [`peak_of`].
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static CALLS: AtomicUsize = AtomicUsize::new(0);
/// The harness's thread: [`this_thread`] of the first allocation, made before `main` when no
/// other thread exists yet.
static HARNESS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // Only its address is used: a per-thread value that needs neither allocation nor a
    // destructor, so reading it inside the allocator is safe at any point of a thread's life.
    static MARK: u8 = const { 0 };
}

/// A number unique to the calling thread among the live ones.
fn this_thread() -> usize {
    MARK.with(|m| std::ptr::from_ref(m) as usize)
}

/// Counts one allocation call, unless the harness made it.
fn called() {
    let me = this_thread();
    let harness = match HARNESS.compare_exchange(0, me, Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => me,
        Err(first) => first,
    };
    if me != harness {
        CALLS.fetch_add(1, Ordering::Relaxed);
    }
}

/// Allocation and reallocation calls so far, in every thread but the harness's.
pub fn allocations() -> usize {
    assert_ne!(
        this_thread(),
        HARNESS.load(Ordering::Relaxed),
        "allocations are counted on a test's own thread, not on the harness's"
    );
    CALLS.load(Ordering::Relaxed)
}

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: forwards every call to the system allocator; only adds bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller promised for `layout`.
        let p = unsafe { System.alloc(layout) };
        called();
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: `p` came from this allocator (that is, from `System`) with `layout`.
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as the caller promised for `p`, `layout` and `new_size`.
        let q = unsafe { System.realloc(p, layout, new_size) };
        called();
        if !q.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        q
    }
}

/// One measurement at a time (the counters are global).
static SERIAL: Mutex<()> = Mutex::new(());

/// Holds the measurement lock; every test of a binary that measures takes it for its whole run.
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` and returns its result with the peak heap growth it caused, in bytes (the caller
/// holds [`serial`]).
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}
