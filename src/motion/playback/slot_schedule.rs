//! Which slot of the GPU path's pool each pedestrian takes, decided once from the file's
//! index: per model, pedestrians in order of their first sample take the lowest slot whose
//! last pedestrian left `lead` seconds before they come (their samples are read that long
//! before their first). So a slot is never handed on while its pedestrian is still shown,
//! the pool is as small as the most pedestrians held at once, and reading a chunk needs no
//! word of what the time shown is: a reader a chunk ahead assigns as one on time would.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::motion::trajectory::TrackSummary;

/// Marks a pedestrian without a slot (none of its model's, which cannot happen for a file's
/// own pedestrians).
pub(super) const NO_SLOT: u32 = u32::MAX;

/// See the module documentation.
#[derive(Debug, Clone)]
pub(super) struct SlotSchedule {
    /// Per pedestrian, its slot.
    pub(super) slot_of: Vec<u32>,
    /// Per slot, its model.
    pub(super) slot_model: Vec<u32>,
}

impl SlotSchedule {
    /// The slots of `peds`, each drawn as model `model_of[p]` of `models`, read `lead` seconds
    /// before their first sample.
    pub(super) fn new(peds: &[TrackSummary], model_of: &[u32], models: usize, lead: f64) -> Self {
        let mut slot_of = vec![NO_SLOT; peds.len()];
        let mut slot_model = Vec::new();
        let mut order: Vec<u32> = (0..peds.len() as u32).collect();
        order.sort_by(|&a, &b| peds[a as usize].start.total_cmp(&peds[b as usize].start));
        for m in 0..models as u32 {
            // Slots in use by the time their pedestrian leaves, and those free, lowest first.
            let mut busy: BinaryHeap<Reverse<(OrderedTime, u32)>> = BinaryHeap::new();
            let mut free: BinaryHeap<Reverse<u32>> = BinaryHeap::new();
            for &p in order.iter().filter(|&&p| model_of[p as usize] == m) {
                let s = &peds[p as usize];
                let from = s.start - lead;
                while let Some(&Reverse((OrderedTime(end), slot))) = busy.peek() {
                    if !(end < from) {
                        break;
                    }
                    busy.pop();
                    free.push(Reverse(slot));
                }
                let slot = match free.pop() {
                    Some(Reverse(slot)) => slot,
                    None => {
                        slot_model.push(m);
                        slot_model.len() as u32 - 1
                    }
                };
                slot_of[p as usize] = slot;
                busy.push(Reverse((OrderedTime(s.end), slot)));
            }
        }
        Self {
            slot_of,
            slot_model,
        }
    }
}

/// A time ordered by `total_cmp`, for the heap.
#[derive(Clone, Copy, Debug, PartialEq)]
struct OrderedTime(f64);

impl Eq for OrderedTime {}

impl PartialOrd for OrderedTime {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OrderedTime {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ped(start: f64, end: f64) -> TrackSummary {
        TrackSummary {
            id: 0,
            start,
            end,
            samples: 2,
            height: None,
        }
    }

    #[test]
    fn a_slot_is_handed_on_only_a_lead_after_its_pedestrian_left() {
        // Model 0: a (0-5), b (6-9), c (5.5-8): with a lead of 2, b cannot take a's slot
        // (a left 1 s before b is read) but d (8-12, read from 6) can.
        let peds = [ped(0.0, 5.0), ped(6.0, 9.0), ped(5.5, 8.0), ped(8.0, 12.0)];
        let s = SlotSchedule::new(&peds, &[0, 0, 0, 0], 1, 2.0);
        assert_eq!(s.slot_of, [0, 2, 1, 0]);
        assert_eq!(s.slot_model, [0, 0, 0]);
        // Two models keep their own slots: with no lead, c takes a's.
        let s = SlotSchedule::new(&peds, &[0, 1, 0, 1], 2, 0.0);
        assert_eq!(s.slot_model, [0, 1, 1]);
        assert_eq!(s.slot_of, [0, 1, 0, 2]);
    }
}
