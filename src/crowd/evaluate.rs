//! The evaluation job: every slot position's record, and the exact positions' palettes,
//! written in place into a ring slot, in parallel parts on the pool for a large frame.
//! Instances playing the same clip are evaluated a batch at a time, one per SIMD lane
//! ([`evaluate_batch_unfenced`]); an instance in a cross-fade on its own; a baked position
//! gets a record that points at its clip's baked frames, and no palette.
//!
//! The output is bit-identical whatever the thread count: each instance is computed by the
//! same code with the same inputs, and a batch lane does not depend on its neighbours.

use std::sync::{Arc, Mutex, PoisonError};

use super::baked::BakedLibrary;
use super::error::{CrowdError, RingError};
use super::members::{Member, Members};
use super::model_bounds::{BoundsTable, clip_bounds_of};
use super::record::{InstanceRecord, RECORD_BAKED, RECORD_LOOK_SHIFT};
use super::ring::Slot;
use super::slot_order::Entry;
use super::workers::{WorkerScratch, Workers};
use crate::anim::{
    Batch, MAX_LANES, Mat3x4, PaletteStores, SkinnedModel, evaluate_batch_unfenced,
    finish_streaming,
};

/// Joints per parallel task: big enough that scheduling is noise (a few microseconds of
/// work), small enough that two threads finish together.
const JOINTS_PER_TASK: usize = 4096;
/// How many slot positions ahead members are fetched while records are written.
const PREFETCH_AHEAD: usize = 8;

/// What one frame is written from.
pub(crate) struct Frame<'a> {
    pub(crate) members: &'a Members,
    /// Slot order, with each position's palette base.
    pub(crate) entries: &'a [Entry],
    /// Per slot position: exact palette (true) or baked frames.
    pub(crate) exact: &'a [bool],
    /// Exact palettes this frame, and their matrices together.
    pub(crate) exact_count: usize,
    pub(crate) palette_matrices: usize,
    pub(crate) bounds: &'a BoundsTable,
    pub(crate) baked: &'a BakedLibrary,
}

/// Writes `frame`'s records (all of them) and exact palettes, in slot order, in place in
/// `slot`; fails when the slot is too small for them.
pub(crate) fn write_slot(
    frame: &Frame<'_>,
    workers: &mut Workers,
    slot: &mut Slot<'_>,
) -> Result<(), CrowdError> {
    let instances = frame.members.len();
    let joints = frame.palette_matrices;
    check_capacity("instance records", slot.records.len(), instances)?;
    check_capacity("palette matrices", slot.palettes.len(), joints)?;
    let records = &mut slot.records[..instances];
    let palettes = &mut slot.palettes[..joints];
    let avg_joints = joints.div_ceil(frame.exact_count.max(1)).max(1);
    // A multiple of the lane count, so that only bucket ends leave lanes idle.
    // One thread, or a small frame: a single part, evaluated on the calling thread without
    // rayon.
    let serial = workers.serial_frame(joints, instances);
    let grain = if serial {
        usize::MAX
    } else {
        (JOINTS_PER_TASK / avg_joints)
            .max(1)
            .next_multiple_of(workers.lanes())
    };
    let job = Job {
        members: frame.members.all(),
        models: frame.members.models(),
        grain,
        lanes: workers.lanes(),
        stores: workers.palette_stores(joints * size_of::<Mat3x4>()),
        bounds: frame.bounds,
        baked: frame.baked,
    };
    let entries = frame.entries;
    let exact = &frame.exact[..entries.len()];
    if serial {
        job.evaluate(workers.scratch(), entries, exact, records, palettes);
    } else {
        workers
            .run_with_scratch(|scratch| job.evaluate(scratch, entries, exact, records, palettes));
    }
    Ok(())
}

fn check_capacity(what: &'static str, capacity: usize, needed: usize) -> Result<(), RingError> {
    if capacity < needed {
        return Err(RingError::SlotTooSmall {
            what,
            capacity,
            needed,
        });
    }
    Ok(())
}

/// Asks the processor to start loading `member` (its first two cache lines: world, model,
/// the instance's clock) into the cache; a hint, with no effect on results.
#[inline(always)]
fn prefetch(member: &Member) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let p = std::ptr::from_ref(member).cast::<i8>();
        // SAFETY: prefetching is a hint and never faults; both addresses lie in `member`
        // (160 bytes) or one line past its start.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p);
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64));
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(128));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = member;
}

/// The read-only inputs of one frame's evaluation.
struct Job<'a> {
    members: &'a [Member],
    models: &'a [Arc<SkinnedModel>],
    grain: usize,
    /// Instances per batch on this processor.
    lanes: usize,
    /// How batches write their palettes.
    stores: PaletteStores,
    bounds: &'a BoundsTable,
    baked: &'a BakedLibrary,
}

impl Job<'_> {
    /// Splits the slot positions in halves, and the outputs at the matching record and
    /// palette base, until a part is at most `grain` positions; each part is evaluated by
    /// whichever worker picks it up, with that worker's entry of `scratch`. No allocation:
    /// `rayon::join` keeps its jobs on the stack.
    fn evaluate(
        &self,
        scratch: &[Mutex<WorkerScratch>],
        entries: &[Entry],
        exact: &[bool],
        records: &mut [InstanceRecord],
        palettes: &mut [Mat3x4],
    ) {
        if entries.len() <= self.grain {
            let worker = rayon::current_thread_index().unwrap_or(0) % scratch.len();
            let mut scratch = scratch[worker]
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            self.evaluate_serial(entries, exact, records, palettes, &mut scratch);
            return;
        }
        let mid = (entries.len() / 2)
            .next_multiple_of(self.lanes)
            .min(entries.len());
        let split = (entries[mid].palette_base - entries[0].palette_base) as usize;
        let (entries_a, entries_b) = entries.split_at(mid);
        let (exact_a, exact_b) = exact.split_at(mid);
        let (records_a, records_b) = records.split_at_mut(mid);
        let (palettes_a, palettes_b) = palettes.split_at_mut(split);
        rayon::join(
            || self.evaluate(scratch, entries_a, exact_a, records_a, palettes_a),
            || self.evaluate(scratch, entries_b, exact_b, records_b, palettes_b),
        );
    }

    /// The record of the member at slot position `e`.
    fn record(&self, e: &Entry, exact: bool) -> InstanceRecord {
        let m = &self.members[e.member as usize];
        let mb = self.bounds.of_model(m.model);
        let (now, from) = clip_bounds_of(&m.anim, mb);
        let duration = m
            .anim
            .model()
            .clips()
            .get(m.anim.clip())
            .map_or(0.0, |c| c.duration());
        let phase = if duration > 0.0 {
            m.anim.time() / duration
        } else {
            0.0
        };
        let mut r = InstanceRecord {
            world: m.world,
            palette_base: e.palette_base,
            joints: InstanceRecord::pack_joints(m.joints, phase),
            model_flags: m.model | m.look << RECORD_LOOK_SHIFT,
            bounds: now | from << 16,
            ..InstanceRecord::default()
        };
        if exact {
            return r;
        }
        // Baked: the choice (`palette_choice`) says baked only when both clips have frames.
        let frame = |b: u32, time: f32| {
            self.baked.entry((mb.base + b) as usize).map(|entry| {
                let (f, w) = entry.clip.frame_at(time);
                (entry.base + f * m.joints, w)
            })
        };
        if let Some((base, w)) = frame(now, m.anim.time()) {
            r.model_flags |= RECORD_BAKED;
            r.palette_base = base;
            r.frame_weight = w;
            if let (Some((_, from_time)), Some(weight)) =
                (m.anim.fade_source(), m.anim.fade_weight())
                && let Some((base, w)) = frame(from, from_time)
            {
                r.fade_base = base;
                r.fade_frame_weight = w;
                r.fade = 1.0 - weight;
            }
        }
        r
    }

    /// Writes the records of `entries` and, walking runs of exact positions in the same
    /// bucket, their palettes: batches of up to `lanes` for a shared clip, one by one
    /// for instances in a cross-fade. Baked positions take no palette space.
    fn evaluate_serial(
        &self,
        entries: &[Entry],
        exact: &[bool],
        records: &mut [InstanceRecord],
        palettes: &mut [Mat3x4],
        scratch: &mut WorkerScratch,
    ) {
        let base = entries.first().map_or(0, |e| e.palette_base);
        for (k, ((e, &x), r)) in entries
            .iter()
            .zip(exact)
            .zip(records.iter_mut())
            .enumerate()
        {
            // Slot order visits a bucket's members in index order, but with gaps no hardware
            // prefetcher follows: without this, a crowd of 100,000 spends most of its record
            // writing waiting for members to arrive from memory.
            if let Some(ahead) = entries.get(k + PREFETCH_AHEAD) {
                prefetch(&self.members[ahead.member as usize]);
            }
            *r = self.record(e, x);
        }
        let mut rest = palettes;
        let mut at = 0;
        while at < entries.len() {
            if !exact[at] {
                at += 1;
                continue;
            }
            let first = &self.members[entries[at].member as usize];
            let joints = first.joints as usize;
            let batchable = first.anim.fade_weight().is_none()
                && first.anim.clip() < self.models[first.model as usize].clips().len();
            // The exact positions of the batch (baked ones between them take no palette
            // space, so their palettes are adjacent).
            let mut lanes_at = [at; MAX_LANES];
            let mut lanes = 1;
            let mut next = at + 1;
            if batchable {
                while lanes < self.lanes
                    && next < entries.len()
                    && self.members[entries[next].member as usize].bucket == first.bucket
                {
                    if exact[next] {
                        lanes_at[lanes] = next;
                        lanes += 1;
                    }
                    next += 1;
                }
            }
            let (out, tail) = rest.split_at_mut(joints * lanes);
            rest = tail;
            if batchable {
                let mut times = [first.anim.time(); MAX_LANES];
                for (t, &p) in times.iter_mut().zip(&lanes_at[..lanes]) {
                    *t = self.members[entries[p].member as usize].anim.time();
                }
                let batch = Batch {
                    model: &self.models[first.model as usize],
                    clip: first.anim.clip(),
                    times,
                    lanes,
                    streaming: self.stores.streaming(),
                };
                evaluate_batch_unfenced(&batch, self.stores, &mut scratch.batch, out);
            } else {
                first.anim.evaluate(&mut scratch.pose, out);
            }
            at = next;
        }
        debug_assert_eq!(
            rest.len(),
            0,
            "palette range of positions starting at base {base} fully written"
        );
        // Batches write with streaming stores: order them before the task completes.
        finish_streaming();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::PoseScratch;
    use crate::crowd::baked::BakeSettings;
    use crate::crowd::slot_order::SlotOrder;
    use crate::crowd::test_models::stick;

    /// Four sticks at different times, the second and fourth on the second clip; every clip
    /// baked.
    struct Scene {
        members: Members,
        order: SlotOrder,
        bounds: BoundsTable,
        baked: BakedLibrary,
    }

    fn scene() -> Scene {
        let model = stick(2);
        let mut bounds = BoundsTable::default();
        bounds.add(&model);
        let baked =
            BakedLibrary::bake(std::slice::from_ref(&model), |_| 3, BakeSettings::default()).0;
        let mut members = Members::default();
        let id = members.add_model(model);
        for i in 0..4 {
            members.spawn(id, Mat3x4::IDENTITY).expect("spawn");
            let anim = members.anim_mut(i);
            anim.play(i % 2, 0.0).expect("clip");
            anim.set_time(0.1 + 0.2 * i as f32);
        }
        let order = SlotOrder::built(&mut members);
        Scene {
            members,
            order,
            bounds,
            baked,
        }
    }

    #[test]
    fn exact_positions_get_palettes_and_baked_ones_point_at_their_frames() {
        let mut s = scene();
        // Slot order: clip 0 (members 0, 2), then clip 1 (1, 3). The first of each is exact.
        let exact = [true, false, true, false];
        let entries = s.order.entries_mut();
        for (e, base) in entries.iter_mut().zip([0, 2, 2, 4]) {
            e.palette_base = base;
        }
        let members: Vec<u32> = entries.iter().map(|e| e.member).collect();
        assert_eq!(members, [0, 2, 1, 3]);
        let frame = Frame {
            members: &s.members,
            entries: s.order.entries(),
            exact: &exact,
            exact_count: 2,
            palette_matrices: 4,
            bounds: &s.bounds,
            baked: &s.baked,
        };
        let mut workers = Workers::new(1).expect("no pool");
        let mut records = vec![InstanceRecord::default(); 4];
        let mut palettes = vec![Mat3x4::IDENTITY; 4];
        let mut slot = Slot {
            index: 0,
            records: &mut records,
            palettes: &mut palettes,
        };
        write_slot(&frame, &mut workers, &mut slot).expect("frame");

        let mut scratch = PoseScratch::new(2);
        let mut want = [Mat3x4::IDENTITY; 2];
        for (position, &member) in members.iter().enumerate() {
            let anim = &s.members.all()[member as usize];
            let r = &records[position];
            assert_eq!(r.bounds, (member % 2) * 0x1_0001, "position {position}");
            if exact[position] {
                assert!(!r.is_baked());
                anim.anim.evaluate(&mut scratch, &mut want);
                let base = r.palette_base as usize;
                for (got, want) in palettes[base..base + 2].iter().zip(&want) {
                    // A batch of one lane against the instance on its own: the same within
                    // rounding (the batch kernels are compared bit for bit elsewhere).
                    let diff = got
                        .rows
                        .iter()
                        .zip(&want.rows)
                        .map(|(a, b)| (*a - *b).abs().max_element())
                        .fold(0.0f32, f32::max);
                    assert!(diff < 1e-5, "position {position}: {got:?} against {want:?}");
                }
            } else {
                assert!(r.is_baked());
                let entry = s.baked.entry(member as usize % 2).expect("baked");
                let (f, w) = entry.clip.frame_at(anim.anim.time());
                assert_eq!(r.palette_base, entry.base + 2 * f);
                assert_eq!(r.frame_weight, w);
            }
        }

        // A slot too small for the frame is an error, not a partial frame.
        let mut short = vec![Mat3x4::IDENTITY; 3];
        let mut slot = Slot {
            index: 0,
            records: &mut records,
            palettes: &mut short,
        };
        let err = write_slot(&frame, &mut workers, &mut slot);
        assert!(
            matches!(
                err,
                Err(CrowdError::Ring(RingError::SlotTooSmall { needed: 4, .. }))
            ),
            "{err:?}"
        );
    }
}
