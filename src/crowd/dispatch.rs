//! `Dispatcher`: runs a frame's work inside the crowd's rayon pool without rayon's injection
//! queue.
//!
//! `ThreadPool::install` from a thread outside the pool pushes a job onto the pool's global
//! injection queue, which allocates a new block every 63 jobs: a crowd that enters its pool
//! twice a frame would allocate every 30 frames or so. Instead, one long-lived job (spawned
//! once, with the pool) waits on a condition variable; each frame hands it the work by
//! reference and waits for it to finish. Inside that job, `rayon::join` spreads the work over
//! the pool through the workers' own deques. No allocation per frame, and the same threads.
//!
//! Waking a sleeping thread costs tens of microseconds on a virtual machine, so the
//! coordinator looks for the next run for a moment before it sleeps (a frame's `update` and
//! `write_palettes` follow each other), and the caller polls for the end when the pool leaves
//! it a core. With one thread there is no pool and no hand-off at all.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long the coordinator keeps looking for the next piece of work before it sleeps.
const COORDINATOR_SPIN: Duration = Duration::from_micros(200);
/// How long the caller polls for completion before it sleeps.
const CALLER_SPIN: Duration = Duration::from_micros(2000);

/// A borrowed `FnMut` with its lifetime erased; see the safety argument in [`Dispatcher::run`].
struct WorkPtr(*mut (dyn FnMut() + Send + 'static));

// SAFETY: the pointee is `Send`; the pointer is only dereferenced by the coordinator while the
// thread that owns the closure is blocked in `run`.
unsafe impl Send for WorkPtr {}

#[derive(Default)]
struct State {
    work: Option<WorkPtr>,
    panic: Option<Box<dyn Any + Send>>,
    shutdown: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Signals the coordinator: new work or shutdown.
    wake: Condvar,
    /// Signals `run`: the work finished.
    done: Condvar,
    /// Runs handed over and runs finished; `run` waits until they match. Written only under
    /// `state`'s lock (so condition-variable waits miss no change), read lock-free while
    /// spinning.
    started: AtomicU64,
    finished: AtomicU64,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A rayon pool entered through a resident coordinator job; see the module documentation.
/// With one thread there is no pool: the caller does the work itself.
pub(crate) struct Dispatcher {
    shared: Arc<Shared>,
    pool: Option<rayon::ThreadPool>,
    /// Whether the pool leaves a core free for the caller to poll on.
    spare_core: bool,
}

impl Dispatcher {
    /// A pool of `threads` threads (0: one per core) with its coordinator running, or no pool
    /// for one thread.
    pub(crate) fn new(threads: usize) -> Result<Self, rayon::ThreadPoolBuildError> {
        let shared = Arc::new(Shared::default());
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = if threads == 0 { cores } else { threads };
        if threads == 1 {
            return Ok(Self {
                shared,
                pool: None,
                spare_core: false,
            });
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("throng-crowd-{i}"))
            .build()?;
        let coordinator = shared.clone();
        pool.spawn(move || coordinate(&coordinator));
        Ok(Self {
            shared,
            pool: Some(pool),
            spare_core: threads < cores,
        })
    }

    /// Threads doing the work (the coordinator's included: it works too).
    pub(crate) fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.current_num_threads())
    }

    /// Whether the work runs on the calling thread (one thread, no pool): it must then not
    /// use rayon, which would hand it to rayon's global pool.
    pub(crate) fn is_inline(&self) -> bool {
        self.pool.is_none()
    }

    /// Runs `work` on a pool thread and returns when it has finished; a panic in `work` is
    /// resumed here.
    pub(crate) fn run(&mut self, mut work: impl FnMut() + Send) {
        if self.pool.is_none() {
            work();
            return;
        }
        let work: &mut (dyn FnMut() + Send + '_) = &mut work;
        // SAFETY: only the lifetime changes (same fat-pointer layout). The coordinator
        // dereferences the pointer only between taking it from `state.work` and marking the
        // frame finished, and this function does not return (so `work` stays alive and
        // borrowed by no one else) until it observes `finished == started`. `&mut self`
        // keeps a second `run` from overlapping.
        let ptr: *mut (dyn FnMut() + Send + 'static) = unsafe {
            std::mem::transmute::<*mut (dyn FnMut() + Send + '_), *mut (dyn FnMut() + Send + 'static)>(
                work,
            )
        };
        let mut state = lock(&self.shared.state);
        state.work = Some(WorkPtr(ptr));
        let ticket = self.shared.started.load(Ordering::Relaxed) + 1;
        self.shared.started.store(ticket, Ordering::Release);
        drop(state);
        self.shared.wake.notify_one();
        // With a core to spare the caller polls for the end (sooner than a wake-up would tell
        // it); without, it sleeps at once and leaves every core to the workers (a polling
        // thread still takes time slices from a worker, even when it yields).
        if self.spare_core {
            spin_until(CALLER_SPIN, || {
                self.shared.finished.load(Ordering::Acquire) == ticket
            });
        }
        let mut state = lock(&self.shared.state);
        while self.shared.finished.load(Ordering::Acquire) != ticket {
            state = self
                .shared
                .done
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if let Some(panic) = state.panic.take() {
            drop(state);
            resume_unwind(panic);
        }
    }
}

impl Drop for Dispatcher {
    fn drop(&mut self) {
        lock(&self.shared.state).shutdown = true;
        self.shared.wake.notify_all();
        // The pool's own drop then lets its threads exit once the coordinator has returned.
    }
}

/// The resident job: waits for work, runs it (its `rayon::join`s reach the other workers),
/// reports completion.
fn coordinate(shared: &Shared) {
    let mut state = lock(&shared.state);
    loop {
        if state.shutdown {
            return;
        }
        let Some(WorkPtr(work)) = state.work.take() else {
            // Look for the next run for a moment before sleeping: it often follows at once.
            let seen = shared.finished.load(Ordering::Relaxed);
            drop(state);
            spin_until(COORDINATOR_SPIN, || {
                shared.started.load(Ordering::Acquire) != seen
            });
            state = lock(&shared.state);
            if state.work.is_none() && !state.shutdown {
                state = shared
                    .wake
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            continue;
        };
        drop(state);
        // SAFETY: see `Dispatcher::run`: the closure is alive and exclusively ours until we
        // mark the frame finished below.
        let outcome = catch_unwind(AssertUnwindSafe(|| unsafe { (*work)() }));
        state = lock(&shared.state);
        state.panic = outcome.err();
        let started = shared.started.load(Ordering::Relaxed);
        shared.finished.store(started, Ordering::Release);
        shared.done.notify_all();
    }
}

/// Polls `ready` until it holds or `limit` has passed.
fn spin_until(limit: Duration, ready: impl Fn() -> bool) {
    let start = Instant::now();
    while !ready() {
        for _ in 0..64 {
            std::hint::spin_loop();
        }
        if start.elapsed() > limit {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_borrowed_work_on_the_pool_and_returns_results() {
        let mut d = Dispatcher::new(2).expect("pool");
        let mut sum = 0u64;
        let data: Vec<u64> = (1..=1000).collect();
        for _ in 0..100 {
            d.run(|| {
                assert!(
                    rayon::current_thread_index().is_some(),
                    "runs inside the pool"
                );
                let (a, b) = data.split_at(500);
                let (x, y) = rayon::join(|| a.iter().sum::<u64>(), || b.iter().sum::<u64>());
                sum += x + y;
            });
        }
        assert_eq!(sum, 100 * 500_500);
    }

    #[test]
    fn one_thread_runs_on_the_caller() {
        let mut d = Dispatcher::new(1).expect("no pool");
        assert!(d.is_inline());
        let caller = std::thread::current().id();
        let mut on = None;
        d.run(|| on = Some(std::thread::current().id()));
        assert_eq!(on, Some(caller));
    }

    #[test]
    fn a_panic_in_the_work_reaches_the_caller_and_the_pool_survives() {
        let mut d = Dispatcher::new(2).expect("pool");
        let caught = catch_unwind(AssertUnwindSafe(|| d.run(|| panic!("boom"))));
        assert!(caught.is_err());
        let mut ran = false;
        d.run(|| ran = true);
        assert!(ran);
    }
}
