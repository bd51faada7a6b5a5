//! Who does a crowd's work, and how: the rayon pool (entered through [`Dispatcher`]), each
//! worker thread's scratch, the SIMD batch width, the stores palettes are written with, and
//! the sizes below which work stays on the calling thread.

use std::sync::{Mutex, PoisonError};

use super::dispatch::Dispatcher;
use super::error::CrowdError;
use crate::anim::{BatchScratch, PaletteStores, PoseScratch, batch_lanes};

/// Instances per task when the work per instance is tiny (advancing clocks, choosing between
/// exact and baked palettes).
pub(crate) const INSTANCES_PER_TASK: usize = 1024;
/// Below this many palette matrices per frame, or instances per update, the work runs on the
/// calling thread by default: handing it to the pool and hearing back costs tens of
/// microseconds on a virtual machine, which a frame this small (under half a millisecond)
/// cannot win back. See [`Workers::set_serial_below`].
const PARALLEL_MIN_JOINTS: usize = 32_768;
const PARALLEL_MIN_INSTANCES: usize = 32_768;
/// Palette bytes per frame from which palettes are written with streaming stores: past a few
/// megabytes a frame's palettes no longer stay in the caches, and skipping the cache saves
/// reading each line before writing it; below, ordinary stores keep them cached for the
/// reader. Measured (robot, one thread, sixteen lanes, staged): ordinary stores ahead at 2 MB
/// and 4 MB frames (200 against 191 M joints/s), streaming ahead at 6 MB (185 against 177) and
/// 8 MB (190 against 178).
const STREAMING_MIN_BYTES: usize = 5 << 20;

/// Per worker thread: scratch for single instances and for batches.
#[derive(Default)]
pub(crate) struct WorkerScratch {
    pub(crate) pose: PoseScratch,
    pub(crate) batch: BatchScratch,
}

/// A crowd's worker threads and their settings; see the module documentation.
pub(crate) struct Workers {
    pool: Dispatcher,
    /// Instances per batch on this processor ([`batch_lanes`]).
    lanes: usize,
    /// Work below these sizes runs on the calling thread (see `set_serial_below`).
    serial_below_joints: usize,
    serial_below_instances: usize,
    /// The palette stores asked for with [`Workers::set_palette_stores`]; `None`: by frame
    /// size.
    stores: Option<PaletteStores>,
    /// One per worker thread, grown when a bigger model is added and reused every frame:
    /// evaluation itself never allocates.
    scratch: Vec<Mutex<WorkerScratch>>,
}

impl Workers {
    /// `threads` worker threads (0: one per core).
    pub(crate) fn new(threads: usize) -> Result<Self, CrowdError> {
        let pool = Dispatcher::new(threads).map_err(|e| CrowdError::Pool {
            threads,
            message: e.to_string(),
        })?;
        let scratch = (0..pool.threads())
            .map(|_| Mutex::new(WorkerScratch::default()))
            .collect();
        Ok(Self {
            pool,
            lanes: batch_lanes(),
            serial_below_joints: PARALLEL_MIN_JOINTS,
            serial_below_instances: PARALLEL_MIN_INSTANCES,
            stores: None,
            scratch,
        })
    }

    /// Worker threads.
    pub(crate) fn threads(&self) -> usize {
        self.pool.threads()
    }

    /// Instances per batch on this processor.
    pub(crate) fn lanes(&self) -> usize {
        self.lanes
    }

    /// Frames with fewer than `joints` palette matrices, and passes over fewer than
    /// `instances` instances, run on the calling thread (0: always the pool).
    pub(crate) fn set_serial_below(&mut self, joints: usize, instances: usize) {
        self.serial_below_joints = joints;
        self.serial_below_instances = instances;
    }

    /// Forces a kind of palette stores (`None`: by frame size).
    pub(crate) fn set_palette_stores(&mut self, stores: Option<PaletteStores>) {
        self.stores = stores;
    }

    /// The stores a frame of `bytes` bytes of palettes is written with.
    pub(crate) fn palette_stores(&self, bytes: usize) -> PaletteStores {
        self.stores
            .unwrap_or_else(|| PaletteStores::for_batch(self.lanes, bytes >= STREAMING_MIN_BYTES))
    }

    /// Grows every worker's scratch for a model of `joints` joints.
    pub(crate) fn reserve(&mut self, joints: usize) {
        for s in &mut self.scratch {
            let s = s.get_mut().unwrap_or_else(PoisonError::into_inner);
            s.pose.reserve(joints);
            s.batch.reserve(joints);
        }
    }

    /// Whether a pass over `instances` instances runs on the calling thread.
    pub(crate) fn serial_pass(&self, instances: usize) -> bool {
        self.pool.is_inline() || instances < self.serial_below_instances
    }

    /// Whether a frame of `joints` palette matrices for `instances` instances is evaluated on
    /// the calling thread.
    pub(crate) fn serial_frame(&self, joints: usize, instances: usize) -> bool {
        self.pool.is_inline()
            || (joints < self.serial_below_joints && instances < self.serial_below_instances)
    }

    /// Runs `work` on the pool and returns when it has finished.
    pub(crate) fn run(&mut self, work: impl FnMut() + Send) {
        self.pool.run(work);
    }

    /// Every worker's scratch, indexed by rayon's thread index (0 off the pool).
    pub(crate) fn scratch(&self) -> &[Mutex<WorkerScratch>] {
        &self.scratch
    }

    /// Runs `work` on the pool with every worker's scratch, and returns when it has finished.
    pub(crate) fn run_with_scratch(
        &mut self,
        mut work: impl FnMut(&[Mutex<WorkerScratch>]) + Send,
    ) {
        let scratch = &self.scratch;
        self.pool.run(|| work(scratch));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_work_stays_on_the_calling_thread() {
        let mut workers = Workers::new(2).expect("pool");
        assert_eq!(workers.threads(), 2);
        assert_eq!(workers.scratch().len(), 2);
        assert!(workers.serial_pass(PARALLEL_MIN_INSTANCES - 1));
        assert!(!workers.serial_pass(PARALLEL_MIN_INSTANCES));
        // A frame goes to the pool when either its matrices or its instances are many.
        assert!(workers.serial_frame(PARALLEL_MIN_JOINTS - 1, 10));
        assert!(!workers.serial_frame(PARALLEL_MIN_JOINTS, 10));
        assert!(!workers.serial_frame(10, PARALLEL_MIN_INSTANCES));
        workers.set_serial_below(0, 0);
        assert!(!workers.serial_pass(0) && !workers.serial_frame(0, 0));
        // One thread: no pool, whatever the sizes.
        let one = Workers::new(1).expect("no pool");
        assert!(one.serial_pass(usize::MAX) && one.serial_frame(usize::MAX, usize::MAX));
    }

    #[test]
    fn palette_stores_follow_the_frame_size_unless_forced() {
        let mut workers = Workers::new(1).expect("no pool");
        let lanes = workers.lanes();
        let small = PaletteStores::for_batch(lanes, false);
        let large = PaletteStores::for_batch(lanes, true);
        assert_eq!(workers.palette_stores(STREAMING_MIN_BYTES - 1), small);
        assert_eq!(workers.palette_stores(STREAMING_MIN_BYTES), large);
        workers.set_palette_stores(Some(small));
        assert_eq!(workers.palette_stores(usize::MAX), small);
    }

    #[test]
    fn work_runs_with_the_workers_scratch() {
        let mut workers = Workers::new(2).expect("pool");
        workers.reserve(7);
        let mut seen = 0;
        workers.run_with_scratch(|scratch| seen = scratch.len());
        assert_eq!(seen, 2);
    }
}
