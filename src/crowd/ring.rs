//! `PaletteRing`: one slot per frame in flight, each a contiguous block of one mapped region
//! holding the instance records followed by the palettes. Workers write a slot in place; the
//! consumer (the renderer) reads it while the next frames fill the other slots.

use super::error::RingError;
use super::record::InstanceRecord;
use super::region::{MappedRegion, REGION_ALIGN, RegionAllocator, RingLimits};
use crate::anim::Mat3x4;

/// Frames in flight unless told otherwise.
pub const DEFAULT_SLOTS: usize = 3;

/// How the consumer tells the ring that it has finished reading a slot. The renderer waits on
/// a timeline semaphore; CPU-only use has nothing to wait for ([`NoConsumer`]). Tokens must
/// increase monotonically, as timeline values do: waiting for one implies all earlier ones.
pub trait ReleaseWait {
    /// Blocks until the consumer's work tagged `token` is complete.
    fn wait_released(&mut self, token: u64) -> Result<(), RingError>;
}

/// For CPU-only use: slots are never in flight.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoConsumer;

impl ReleaseWait for NoConsumer {
    fn wait_released(&mut self, _token: u64) -> Result<(), RingError> {
        Ok(())
    }
}

/// Where things live inside one slot, in bytes from the slot's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotLayout {
    /// Instance records the slot holds.
    pub instances: usize,
    /// Palette matrices the slot holds.
    pub joints: usize,
    /// Offset of the palette array (records start at 0).
    pub palette_offset: usize,
    /// Distance between consecutive slots (a multiple of [`REGION_ALIGN`]).
    pub stride: usize,
}

impl SlotLayout {
    fn new(instances: usize, joints: usize) -> Result<Self, RingError> {
        let too_large = || RingError::TooLarge { bytes: usize::MAX };
        let records = instances
            .checked_mul(size_of::<InstanceRecord>())
            .ok_or_else(too_large)?;
        let palette_offset = align_up(records).ok_or_else(too_large)?;
        let palettes = joints
            .checked_mul(size_of::<Mat3x4>())
            .ok_or_else(too_large)?;
        let stride = palette_offset
            .checked_add(palettes)
            .and_then(align_up)
            .ok_or_else(too_large)?;
        Ok(Self {
            instances,
            joints,
            palette_offset,
            stride: stride.max(REGION_ALIGN),
        })
    }
}

fn align_up(n: usize) -> Option<usize> {
    n.checked_add(REGION_ALIGN - 1)
        .map(|n| n / REGION_ALIGN * REGION_ALIGN)
}

/// A region replaced by a bigger one, kept until the consumer is done with it.
struct Retired<R> {
    _region: R,
    last_token: Option<u64>,
}

/// Where a slot stands between the ring and the consumer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SlotState {
    /// Not handed out since the region was made.
    Free,
    /// Returned by `acquire`, not yet submitted.
    HandedOut,
    /// Consumer work tagged with this token reads it.
    InFlight(u64),
}

/// A slot being written: the frame's instance records and palettes, in place in the region.
pub struct Slot<'a> {
    /// Which slot this is (for the consumer to bind the right offset).
    pub index: usize,
    /// One record per instance.
    pub records: &'a mut [InstanceRecord],
    /// The palettes of all instances, one after another.
    pub palettes: &'a mut [Mat3x4],
}

/// A ring of slots in one mapped region; see the module documentation.
pub struct PaletteRing<A: RegionAllocator> {
    allocator: A,
    region: A::Region,
    layout: SlotLayout,
    slots: usize,
    /// Per slot: handed out or read by consumer work.
    state: Vec<SlotState>,
    next: usize,
    completed: u64,
    retired: Vec<Retired<A::Region>>,
    generation: u64,
}

impl<A: RegionAllocator> PaletteRing<A> {
    /// A ring of `slots` slots, each holding `instances` records and `joints` palettes.
    pub fn new(
        mut allocator: A,
        slots: usize,
        instances: usize,
        joints: usize,
    ) -> Result<Self, RingError> {
        if slots == 0 {
            return Err(RingError::NoSlots);
        }
        let layout = SlotLayout::new(instances, joints)?;
        check_limits(layout, slots, allocator.limits())?;
        let region = allocate(&mut allocator, layout, slots)?;
        Ok(Self {
            allocator,
            region,
            layout,
            slots,
            state: vec![SlotState::Free; slots],
            next: 0,
            completed: 0,
            retired: Vec::new(),
            generation: 0,
        })
    }

    /// The slot [`Self::acquire`] hands out next: the oldest frame in flight, so a consumer
    /// that keeps per-frame resources indexed by slot reads their results oldest first from
    /// here.
    pub fn next_slot(&self) -> usize {
        self.next
    }

    /// Number of slots (frames in flight).
    pub fn slot_count(&self) -> usize {
        self.slots
    }

    /// The layout of every slot.
    pub fn layout(&self) -> SlotLayout {
        self.layout
    }

    /// The current region (the renderer binds it at `slot * stride`).
    pub fn region(&self) -> &A::Region {
        &self.region
    }

    /// Byte offset of slot `index` in the region.
    pub fn slot_offset(&self, index: usize) -> usize {
        index * self.layout.stride
    }

    /// Increments whenever the region is replaced, so the consumer knows to rebind.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Regions replaced by bigger ones that the consumer may still be reading.
    pub fn retired_regions(&self) -> usize {
        self.retired.len()
    }

    /// Makes every slot hold at least `instances` records and `joints` palettes. Growing
    /// allocates a new region (capacity grows by half again, to keep reallocations rare);
    /// the old one is kept until the consumer has released every slot that used it. Returns
    /// whether the region was replaced.
    pub fn reserve(&mut self, instances: usize, joints: usize) -> Result<bool, RingError> {
        if instances <= self.layout.instances && joints <= self.layout.joints {
            return Ok(false);
        }
        let grow = |have: usize, want: usize| {
            if want <= have {
                have
            } else {
                want.max(have.saturating_add(have / 2))
            }
        };
        let needed = SlotLayout::new(
            instances.max(self.layout.instances),
            joints.max(self.layout.joints),
        )?;
        let limits = self.allocator.limits();
        check_limits(needed, self.slots, limits)?;
        // Room to grow where the limits leave it; exactly what is needed where they do not.
        let grown = SlotLayout::new(
            grow(self.layout.instances, instances),
            grow(self.layout.joints, joints),
        )?;
        let layout = if check_limits(grown, self.slots, limits).is_ok() {
            grown
        } else {
            needed
        };
        let region = allocate(&mut self.allocator, layout, self.slots)?;
        let old = std::mem::replace(&mut self.region, region);
        let last_token = self
            .state
            .iter()
            .filter_map(|s| match s {
                SlotState::InFlight(token) => Some(*token),
                _ => None,
            })
            .max();
        if last_token.is_some_and(|t| t > self.completed) {
            self.retired.push(Retired {
                _region: old,
                last_token,
            });
        }
        self.layout = layout;
        self.state.fill(SlotState::Free);
        self.generation += 1;
        Ok(true)
    }

    /// The slot for this frame, once the consumer has released it (waiting through `waiter`).
    pub fn acquire(&mut self, waiter: &mut impl ReleaseWait) -> Result<Slot<'_>, RingError> {
        let index = self.next;
        if let SlotState::InFlight(token) = self.state[index]
            && token > self.completed
        {
            waiter.wait_released(token)?;
            self.completed = token;
        }
        self.state[index] = SlotState::HandedOut;
        let completed = self.completed;
        self.retired
            .retain(|r| r.last_token.is_some_and(|t| t > completed));
        self.next = (index + 1) % self.slots;
        let layout = self.layout;
        // SAFETY: the region holds `slots * stride` bytes aligned to REGION_ALIGN (checked in
        // `allocate`); slot `index` is the byte range [index*stride, (index+1)*stride), which
        // holds `instances` records at offset 0 and `joints` matrices at `palette_offset`, both
        // 16-byte aligned and non-overlapping. The returned borrows hold `&mut self`, so no
        // other slot view of this ring exists at the same time; the consumer no longer reads
        // this slot (waited above). Every bit pattern is a valid record or matrix.
        unsafe {
            let base = self.region.as_mut_ptr().add(index * layout.stride);
            let records =
                std::slice::from_raw_parts_mut(base.cast::<InstanceRecord>(), layout.instances);
            let palettes = std::slice::from_raw_parts_mut(
                base.add(layout.palette_offset).cast::<Mat3x4>(),
                layout.joints,
            );
            Ok(Slot {
                index,
                records,
                palettes,
            })
        }
    }

    /// Tells the ring that consumer work reading slot `index` completes at `token`; the slot
    /// is not handed out again before [`ReleaseWait::wait_released`] returns for that token.
    /// Each slot [`acquire`](Self::acquire) hands out is submitted once, with the token of the
    /// last work that reads it.
    ///
    /// # Errors
    ///
    /// [`RingError::NotHandedOut`] if `index` is not a slot handed out and not yet submitted
    /// since the region was last replaced (by [`reserve`](Self::reserve)): an out-of-range
    /// index, a slot submitted twice, or one written into the replaced region. Ignoring it
    /// would leave the slot the consumer really reads unprotected, to be overwritten while it
    /// is read; nothing is recorded then.
    pub fn submit(&mut self, index: usize, token: u64) -> Result<(), RingError> {
        match self.state.get_mut(index) {
            Some(state @ SlotState::HandedOut) => {
                *state = SlotState::InFlight(token);
                Ok(())
            }
            _ => Err(RingError::NotHandedOut {
                index,
                slots: self.slots,
            }),
        }
    }
}

/// Refuses a layout whose slot ranges or whole region exceed `limits`, saying what needs how
/// much.
fn check_limits(layout: SlotLayout, slots: usize, limits: RingLimits) -> Result<(), RingError> {
    const MB: f64 = 1e6;
    let fail = |what: String, needed: usize, limit: usize, limit_what| {
        Err(RingError::ExceedsLimit {
            instances: layout.instances,
            joints: layout.joints,
            what,
            needed_mb: needed as f64 / MB,
            limit_mb: limit as f64 / MB,
            limit_what,
        })
    };
    let records = layout.palette_offset;
    let palettes = layout.stride - layout.palette_offset;
    if records > limits.range {
        return fail(
            "instance records".into(),
            records,
            limits.range,
            limits.range_what,
        );
    }
    if palettes > limits.range {
        return fail("palettes".into(), palettes, limits.range, limits.range_what);
    }
    let region = layout.stride.saturating_mul(slots);
    if region > limits.region {
        return fail(
            format!("a palette ring of {slots} frames in flight"),
            region,
            limits.region,
            limits.region_what,
        );
    }
    Ok(())
}

fn allocate<A: RegionAllocator>(
    allocator: &mut A,
    layout: SlotLayout,
    slots: usize,
) -> Result<A::Region, RingError> {
    let bytes = layout
        .stride
        .checked_mul(slots)
        .ok_or(RingError::TooLarge { bytes: usize::MAX })?;
    if bytes > isize::MAX as usize {
        return Err(RingError::TooLarge { bytes });
    }
    let region = allocator.allocate(bytes)?;
    let address = region.as_mut_ptr() as usize;
    if region.len() < bytes || !address.is_multiple_of(REGION_ALIGN) {
        return Err(RingError::BadRegion {
            len: region.len(),
            address,
            bytes,
            align: REGION_ALIGN,
        });
    }
    Ok(region)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crowd::HostAllocator;

    /// Records the tokens it was asked to wait for.
    #[derive(Default)]
    struct Recorder(Vec<u64>);

    impl ReleaseWait for Recorder {
        fn wait_released(&mut self, token: u64) -> Result<(), RingError> {
            self.0.push(token);
            Ok(())
        }
    }

    #[test]
    fn slots_rotate_and_wait_for_their_tokens() {
        let mut ring = PaletteRing::new(HostAllocator, 3, 10, 100).expect("ring");
        let mut waiter = Recorder::default();
        for frame in 0..7u64 {
            let slot = ring.acquire(&mut waiter).expect("slot");
            assert_eq!(slot.index, frame as usize % 3);
            assert_eq!((slot.records.len(), slot.palettes.len()), (10, 100));
            slot.palettes[99] = Mat3x4::IDENTITY;
            let index = slot.index;
            ring.submit(index, frame + 1).expect("handed out");
        }
        // Frames 3.. reuse slots whose work was tagged 1, 2, 3, 4.
        assert_eq!(waiter.0, [1, 2, 3, 4]);
    }

    #[test]
    fn slots_are_disjoint_and_aligned() {
        let mut ring = PaletteRing::new(HostAllocator, 2, 3, 5).expect("ring");
        let layout = ring.layout();
        assert_eq!(layout.palette_offset % REGION_ALIGN, 0);
        assert_eq!(layout.stride % REGION_ALIGN, 0);
        assert!(layout.palette_offset >= 3 * 64);
        assert!(layout.stride >= layout.palette_offset + 5 * 48);
        let base = ring.region().as_mut_ptr() as usize;
        let a = ring.acquire(&mut NoConsumer).expect("slot");
        a.palettes.fill(Mat3x4::from_array([1.0; 12]));
        let a_palettes = a.palettes.as_ptr() as usize;
        let b = ring.acquire(&mut NoConsumer).expect("slot");
        assert_eq!(b.records.as_ptr() as usize, base + layout.stride);
        assert!(a_palettes + 5 * 48 <= b.records.as_ptr() as usize);
        assert!(
            b.palettes
                .iter()
                .all(|m| *m == Mat3x4::from_array([0.0; 12]))
        );
    }

    #[test]
    fn growing_keeps_the_old_region_until_released() {
        let mut ring = PaletteRing::new(HostAllocator, 2, 4, 40).expect("ring");
        let mut waiter = Recorder::default();
        let index = ring.acquire(&mut waiter).expect("slot").index;
        ring.submit(index, 5).expect("handed out");
        assert!(ring.reserve(100, 1000).expect("grows"));
        assert_eq!(ring.generation(), 1);
        assert_eq!(ring.retired_regions(), 1);
        assert!(ring.layout().instances >= 100 && ring.layout().joints >= 1000);
        assert!(!ring.reserve(50, 500).expect("fits"));
        // New slots were never submitted: no wait, and the old region is still retained...
        let index = ring.acquire(&mut waiter).expect("slot").index;
        assert_eq!(ring.retired_regions(), 1);
        ring.submit(index, 6).expect("handed out");
        ring.acquire(&mut waiter).expect("slot");
        ring.acquire(&mut waiter).expect("slot");
        // ...until a token at or past the old region's last use has been waited for.
        assert_eq!(waiter.0, [6]);
        assert_eq!(ring.retired_regions(), 0);
    }

    #[test]
    fn absurd_sizes_are_errors_not_aborts() {
        assert!(matches!(
            PaletteRing::new(HostAllocator, 3, usize::MAX / 8, 1),
            Err(RingError::TooLarge { .. })
        ));
        assert!(matches!(
            PaletteRing::new(HostAllocator, 0, 1, 1),
            Err(RingError::NoSlots)
        ));
    }

    /// Host memory under a consumer's limits.
    struct Limited(RingLimits);

    impl RegionAllocator for Limited {
        type Region = <HostAllocator as RegionAllocator>::Region;
        fn allocate(&mut self, bytes: usize) -> Result<Self::Region, RingError> {
            assert!(bytes <= self.0.region, "allocated past the limit");
            HostAllocator.allocate(bytes)
        }
        fn limits(&self) -> RingLimits {
            self.0
        }
    }

    #[test]
    fn limits_refuse_before_allocating_and_cap_growth() {
        let limits = RingLimits {
            region: 3 * 64 * 1024,
            region_what: "test heap",
            range: 48 * 1024,
            range_what: "test range",
        };
        // Palettes of one slot past the range: refused, saying what and how much.
        let err = PaletteRing::new(Limited(limits), 3, 10, 1025)
            .err()
            .expect("past the range");
        let text = err.to_string();
        assert!(
            matches!(err, RingError::ExceedsLimit { joints: 1025, .. }),
            "{text}"
        );
        assert!(
            text.contains("palettes") && text.contains("test range"),
            "{text}"
        );
        // Within the range but three slots past the region.
        let err = PaletteRing::new(Limited(limits), 4, 100, 1000)
            .err()
            .expect("past the region");
        assert!(err.to_string().contains("test heap"), "{err}");
        // Growth by half again would pass the limit: the ring grows to what is needed only.
        let mut ring = PaletteRing::new(Limited(limits), 3, 10, 700).expect("fits");
        ring.reserve(10, 1000).expect("what is needed fits");
        assert_eq!(ring.layout().joints, 1000);
        assert!(matches!(
            ring.reserve(10, 1025),
            Err(RingError::ExceedsLimit { .. })
        ));
        assert_eq!(
            ring.layout().joints,
            1000,
            "a refused growth changes nothing"
        );
    }

    #[test]
    fn submitting_a_slot_not_handed_out_is_an_error() {
        let mut ring = PaletteRing::new(HostAllocator, 2, 1, 1).expect("ring");
        let not_handed_out =
            |r: Result<(), RingError>| matches!(r, Err(RingError::NotHandedOut { slots: 2, .. }));
        assert!(not_handed_out(ring.submit(0, 1)), "never acquired");
        let index = ring.acquire(&mut NoConsumer).expect("slot").index;
        assert!(not_handed_out(ring.submit(index + 1, 1)), "the other slot");
        assert!(not_handed_out(ring.submit(7, 1)), "out of range");
        ring.submit(index, 1).expect("handed out");
        assert!(not_handed_out(ring.submit(index, 2)), "submitted twice");
        let index = ring.acquire(&mut NoConsumer).expect("slot").index;
        ring.reserve(10, 10).expect("grows");
        assert!(
            not_handed_out(ring.submit(index, 2)),
            "written into the old region"
        );
        // A refused submission records nothing: the new region's slots are not waited for.
        let mut waiter = Recorder::default();
        ring.acquire(&mut waiter).expect("slot");
        ring.acquire(&mut waiter).expect("slot");
        assert!(waiter.0.is_empty(), "{:?}", waiter.0);
    }

    #[test]
    fn a_failed_wait_carries_the_consumers_error() {
        struct Lost;
        impl ReleaseWait for Lost {
            fn wait_released(&mut self, _token: u64) -> Result<(), RingError> {
                Err(RingError::Wait(Box::new(std::io::Error::other(
                    "device lost",
                ))))
            }
        }
        let mut ring = PaletteRing::new(HostAllocator, 1, 1, 1).expect("ring");
        let index = ring.acquire(&mut Lost).expect("nothing to wait for").index;
        ring.submit(index, 1).expect("handed out");
        let Err(e) = ring.acquire(&mut Lost) else {
            panic!("waiting failed");
        };
        let source = std::error::Error::source(&e).expect("a source");
        assert!(
            source.downcast_ref::<std::io::Error>().is_some(),
            "{source:?}"
        );
        assert!(e.to_string().ends_with("device lost"), "{e}");
    }
}
