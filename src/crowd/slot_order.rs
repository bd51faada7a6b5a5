//! Slot order: where each member's record and palette go in a ring slot. Members are grouped
//! by bucket, buckets follow one another model by model (so each model's records are one
//! contiguous range, ready for one instanced draw per subset), and within a bucket members
//! keep their index order (so a batch finds its lanes side by side). The order is rebuilt
//! with a stable counting sort, without allocating, and only when a bucket may have changed.

use std::ops::Range;

use super::members::{Members, ModelId};

/// Where an instance's data sits in a slot this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Index of its record in the slot's record array.
    pub record: usize,
    /// Index of its first matrix in the slot's palette array.
    pub palette_base: usize,
}

/// What one slot position holds.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Entry {
    /// The member's index.
    pub(crate) member: u32,
    /// Its first palette matrix in the slot (set by the choice between exact and baked).
    pub(crate) palette_base: u32,
}

/// The slot order of a crowd's members; see the module documentation.
pub(crate) struct SlotOrder {
    /// Slot order, and each position's palette base.
    entries: Vec<Entry>,
    /// Start of each bucket in slot order (one more entry than buckets).
    bucket_start: Vec<u32>,
    /// Working copy of `bucket_start` for the counting sort (kept to avoid reallocating).
    bucket_fill: Vec<u32>,
    /// A member may have changed bucket, or joined, since the order was built.
    dirty: bool,
}

impl Default for SlotOrder {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
            bucket_start: vec![0],
            bucket_fill: Vec::new(),
            dirty: false,
        }
    }
}

impl SlotOrder {
    /// The slot order of `members` as they stand, for tests of the rooms that read it.
    #[cfg(test)]
    pub(crate) fn built(members: &mut Members) -> Self {
        let mut order = Self::default();
        order.invalidate();
        order.refresh(members);
        order
    }

    /// The order needs building again before its next use: a member joined, or may have
    /// changed clip or fade state.
    pub(crate) fn invalidate(&mut self) {
        self.dirty = true;
    }

    /// Rebuilds the order if it may be out of date: re-derives every member's bucket, then
    /// sorts the members by bucket (stable, by counting).
    pub(crate) fn refresh(&mut self, members: &mut Members) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        members.rebucket();
        let buckets = members.bucket_count();
        let members = members.all();
        let starts = &mut self.bucket_start;
        starts.clear();
        starts.resize(buckets + 1, 0);
        for m in members {
            starts[m.bucket as usize + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        self.entries.resize(members.len(), Entry::default());
        // Place members bucket by bucket, in index order within a bucket; `fill` counts
        // through each bucket and ends as the start of the next.
        self.bucket_fill.clear();
        self.bucket_fill
            .extend_from_slice(&starts[..starts.len() - 1]);
        for (i, m) in members.iter().enumerate() {
            let at = &mut self.bucket_fill[m.bucket as usize];
            self.entries[*at as usize].member = i as u32;
            *at += 1;
        }
    }

    /// The slot positions in order, as of the last [`SlotOrder::refresh`].
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The slot positions, for the choice between exact and baked to set their palette bases.
    pub(crate) fn entries_mut(&mut self) -> &mut [Entry] {
        &mut self.entries
    }

    /// The range of records of `model` once the order is current (empty for a model with no
    /// instances or that was never added).
    pub(crate) fn model_range(&self, members: &Members, model: ModelId) -> Range<usize> {
        match members.buckets_of(model) {
            Some(b) => {
                self.bucket_start[*b.start()] as usize..self.bucket_start[*b.end() + 1] as usize
            }
            None => 0..0,
        }
    }

    /// Where member `member` is written, once the order and its palette bases are current.
    pub(crate) fn placement(&self, member: usize) -> Option<Placement> {
        self.entries
            .iter()
            .position(|e| e.member as usize == member)
            .map(|record| Placement {
                record,
                palette_base: self.entries[record].palette_base as usize,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::Mat3x4;
    use crate::crowd::test_models::stick;

    fn members_of(order: &SlotOrder) -> Vec<u32> {
        order.entries().iter().map(|e| e.member).collect()
    }

    #[test]
    fn spawns_of_two_models_are_grouped_by_model_then_clip() {
        let mut members = Members::default();
        let a = members.add_model(stick(2));
        let b = members.add_model(stick(1));
        let mut order = SlotOrder::default();
        // Interleaved spawns: a, b, a, b, a, a.
        for model in [a, b, a, b, a, a] {
            members.spawn(model, Mat3x4::IDENTITY).expect("spawn");
        }
        // Members 2 and 5 play model a's second clip; member 3 fades.
        members.anim_mut(2).play(1, 0.0).expect("clip");
        members.anim_mut(5).play(1, 0.0).expect("clip");
        members.anim_mut(3).play(0, 0.5).expect("fade");
        order.invalidate();
        order.refresh(&mut members);
        // Model a: clip 0 (0, 4), clip 1 (2, 5); model b: clip 0 (1), alone (3).
        assert_eq!(members_of(&order), [0, 4, 2, 5, 1, 3]);
        assert_eq!(order.model_range(&members, a), 0..4);
        assert_eq!(order.model_range(&members, b), 4..6);
        assert_eq!(order.model_range(&members, ModelId(7)), 0..0);
        assert_eq!(order.placement(5).map(|p| p.record), Some(3));
        assert_eq!(order.placement(6), None);
    }

    #[test]
    fn the_order_is_rebuilt_only_once_invalidated() {
        let mut members = Members::default();
        let a = members.add_model(stick(2));
        let mut order = SlotOrder::default();
        for _ in 0..3 {
            members.spawn(a, Mat3x4::IDENTITY).expect("spawn");
        }
        order.invalidate();
        order.refresh(&mut members);
        assert_eq!(members_of(&order), [0, 1, 2]);
        members.anim_mut(0).play(1, 0.0).expect("clip");
        order.refresh(&mut members);
        assert_eq!(members_of(&order), [0, 1, 2], "not invalidated: kept");
        order.invalidate();
        order.refresh(&mut members);
        assert_eq!(members_of(&order), [1, 2, 0]);
        assert_eq!(order.model_range(&members, a), 0..3);
    }
}
