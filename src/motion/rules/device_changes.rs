//! The changes made through a crowd's API ([`InstanceChange`]), as the commands the GPU's copy
//! of the crowd's state applies in order before it advances a frame
//! (`shaders/crowd_state_apply.comp`).
//!
//! Two things make it more than a conversion one change at a time:
//!
//! - A change names an instance by its index *when it was made*, and the crowd is read when
//!   the frame is written, after later changes. A [`Crowd::despawn`] gives the last instance a
//!   new index, so a change made before it is read at the index the instance has *now* while
//!   its command names the index the GPU's copy has at that point of the sequence. A change to
//!   an instance despawned later in the frame needs no command; nor does a clip change or rate
//!   after a whole clock was given (a spawn, [`Crowd::instance_mut`]): read after the frame's
//!   changes, that clock already holds them.
//! - Records stay dense: each instance's record has a slot in `0..len`. A spawn takes the next
//!   slot; a removal frees one, which the instance holding the last slot then takes
//!   ([`COMMAND_RESLOTTED`]). The slots of a crowd moved to the GPU start as
//!   [`CrowdMotion::on_device`](super::CrowdMotion::on_device) laid them out (grouped by
//!   model); only their count matters to culling and drawing, which read each record's model.
//!
//! Knows nothing of Vulkan. Allocates only while a frame brings more changes, or the crowd
//! more instances, than ever before.

use super::on_device::{clock_of, walker_flags};
use crate::anim::Playback;
use crate::crowd::{Crowd, InstanceChange};
use crate::motion::device_codes::{
    COMMAND_DESPAWNED, COMMAND_MOVED, COMMAND_PACED, COMMAND_PLAYED, COMMAND_REPLACED,
    COMMAND_RESLOTTED, COMMAND_RESTYLED, COMMAND_SPAWNED,
};
use crate::motion::gpu_layouts::{DeviceCommand, DeviceWalker};

/// Marks an instance despawned later in the frame.
const GONE: u32 = u32::MAX;

/// The GPU copy's instances and record slots, as the commands given so far leave them; see
/// the module documentation.
#[derive(Clone, Debug, Default)]
pub struct DeviceChanges {
    /// Per instance, its record's slot.
    slot_of: Vec<u32>,
    /// Per slot, the instance whose record it is.
    instance_at: Vec<u32>,
    /// Scratch of one frame: per change, the index its instance has once every change of the
    /// frame is made (or [`GONE`]).
    now: Vec<u32>,
    /// Scratch: where each index's instance ends, for the indices a removal touched.
    ends: Vec<u32>,
    touched: Vec<u32>,
    /// Per index once the frame's changes are made: the call to [`Self::commands`] that gave
    /// its instance a whole clock read from the crowd (its clip changes and rate since are in
    /// it).
    whole: Vec<u32>,
    /// The number of the current call to [`Self::commands`].
    call: u32,
}

impl DeviceChanges {
    /// The copy made of a crowd whose walkers are `walkers` (by index, with their slots), with
    /// room for `changes` changes a frame before its lists grow.
    pub fn new(walkers: &[DeviceWalker], changes: usize) -> Self {
        let n = walkers.len();
        let mut instance_at = vec![0u32; n];
        let slot_of: Vec<u32> = walkers.iter().map(|w| w.slot).collect();
        for (i, &s) in slot_of.iter().enumerate() {
            if let Some(at) = instance_at.get_mut(s as usize) {
                *at = i as u32;
            }
        }
        Self {
            slot_of,
            instance_at,
            now: Vec::with_capacity(changes),
            ends: (0..n as u32).collect(),
            touched: Vec::with_capacity(changes),
            whole: vec![0; n],
            call: 0,
        }
    }

    /// Instances the copy holds once the commands given so far are applied.
    pub fn len(&self) -> usize {
        self.slot_of.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.slot_of.is_empty()
    }

    /// Instances the copy holds once `changes` are made.
    pub fn len_after(&self, changes: &[InstanceChange]) -> usize {
        changes.iter().fold(self.len(), |n, c| match c {
            InstanceChange::Spawned(_) => n + 1,
            InstanceChange::Despawned { .. } => n.saturating_sub(1),
            _ => n,
        })
    }

    /// Instance `i`'s record slot.
    pub fn slot_of(&self, i: usize) -> Option<u32> {
        self.slot_of.get(i).copied()
    }

    /// Appends to `commands` those for `changes` (made in this order through `crowd`'s API
    /// since the last call), reading `crowd` as it stands now. Returns the most instances the
    /// copy holds at any point of the sequence (the room its tables need this frame); after
    /// the call it holds `crowd.len()`.
    pub fn commands(
        &mut self,
        changes: &[InstanceChange],
        crowd: &Crowd,
        commands: &mut Vec<DeviceCommand>,
    ) -> usize {
        self.resolve(changes);
        self.call = self.call.wrapping_add(1);
        if self.call == 0 {
            self.whole.fill(0);
            self.call = 1;
        }
        if self.whole.len() < crowd.len() {
            self.whole.resize(crowd.len(), 0);
        }
        let mut most = self.len();
        for (k, &change) in changes.iter().enumerate() {
            let now = self.now[k];
            match change {
                InstanceChange::Spawned(i) => {
                    let slot = self.slot_of.len() as u32;
                    self.slot_of.push(slot);
                    self.instance_at.push(i as u32);
                    most = most.max(self.len());
                    if now != GONE {
                        commands.push(spawned(i, slot, now as usize, crowd));
                        self.whole[now as usize] = self.call;
                    }
                }
                InstanceChange::Despawned { instance, last } => {
                    commands.push(DeviceCommand {
                        kind: COMMAND_DESPAWNED,
                        instance: instance as u32,
                        clip: last as u32,
                        ..DeviceCommand::default()
                    });
                    if let Some((k, slot)) = self.remove(instance, last) {
                        let mut command = DeviceCommand {
                            kind: COMMAND_RESLOTTED,
                            instance: k,
                            ..DeviceCommand::default()
                        };
                        command.walker.slot = slot;
                        commands.push(command);
                    }
                }
                _ if now == GONE => {}
                // Read from the crowd once the frame's changes are made, a whole clock
                // already holds every later clip change and rate.
                InstanceChange::Played { .. }
                | InstanceChange::Paced { .. }
                | InstanceChange::Replaced(_)
                    if self.whole.get(now as usize) == Some(&self.call) => {}
                change => {
                    if matches!(change, InstanceChange::Replaced(_))
                        && let Some(w) = self.whole.get_mut(now as usize)
                    {
                        *w = self.call;
                    }
                    commands.extend(changed(change, now as usize, crowd));
                }
            }
        }
        most
    }

    /// Instance `i` removed, the one at `last` taking its index: the instance that now holds
    /// the last slot takes the freed one, returned as (instance, slot) when it moves.
    fn remove(&mut self, i: usize, last: usize) -> Option<(u32, u32)> {
        let (Some(&freed), Some(&moved)) = (self.slot_of.get(i), self.slot_of.get(last)) else {
            return None;
        };
        let top = self.slot_of.len() as u32 - 1;
        self.slot_of[i] = moved;
        self.instance_at[moved as usize] = i as u32;
        self.slot_of.pop();
        let reslotted = (freed != top).then(|| {
            let k = self.instance_at[top as usize];
            self.slot_of[k as usize] = freed;
            self.instance_at[freed as usize] = k;
            (k, freed)
        });
        self.instance_at.pop();
        reslotted
    }

    /// Fills `now`: for each change, the index its instance has after the frame's last change
    /// (walking the changes backwards, each removal moving the last index onto the removed
    /// one). Only the indices a removal touched differ from their own, so only those are
    /// reset afterwards.
    fn resolve(&mut self, changes: &[InstanceChange]) {
        let most = changes
            .iter()
            .map(|c| match *c {
                InstanceChange::Despawned { last, .. } => last + 1,
                InstanceChange::Spawned(i) => i + 1,
                _ => 0,
            })
            .max()
            .unwrap_or(0)
            .max(self.len());
        while self.ends.len() < most {
            self.ends.push(self.ends.len() as u32);
        }
        self.now.clear();
        self.now.resize(changes.len(), GONE);
        for (k, change) in changes.iter().enumerate().rev() {
            if let InstanceChange::Despawned { instance, last } = *change {
                // Before it: the last index's instance ends where the removed index's would
                // have; the removed one is gone.
                let ends = self.ends[instance];
                self.ends[last] = ends;
                if instance != last {
                    self.ends[instance] = GONE;
                } else {
                    self.ends[last] = GONE;
                }
                self.touched.extend([instance as u32, last as u32]);
                continue;
            }
            let index = change.instance();
            self.now[k] = self.ends.get(index).copied().unwrap_or(GONE);
        }
        for &t in &self.touched {
            self.ends[t as usize] = t;
        }
        self.touched.clear();
    }
}

/// The command for a new instance at `at` (record `slot`), read from `crowd`'s instance `now`.
fn spawned(at: usize, slot: u32, now: usize, crowd: &Crowd) -> DeviceCommand {
    let inst = crowd.instance(now);
    DeviceCommand {
        kind: COMMAND_SPAWNED,
        instance: at as u32,
        walker: DeviceWalker {
            start: *crowd.world(now),
            turn: at as u32,
            slot,
            model: crowd.model_of(now).0,
            flags: walker_flags(inst.playback(), crowd.look_of(now).0),
        },
        clock: clock_of(inst, 0.0, 1.0),
        ..DeviceCommand::default()
    }
}

/// The command for a change to the instance at `at` (as the copy numbers it then), read from
/// `crowd`'s instance `now` (`None` for one the crowd does not have).
fn changed(change: InstanceChange, now: usize, crowd: &Crowd) -> Option<DeviceCommand> {
    if now >= crowd.len() {
        return None;
    }
    let at = change.instance();
    let mut command = DeviceCommand {
        instance: at as u32,
        ..DeviceCommand::default()
    };
    match change {
        InstanceChange::Moved(_) => {
            command.kind = COMMAND_MOVED;
            command.walker.start = *crowd.world(now);
        }
        InstanceChange::Played { clip, fade, .. } => {
            command.kind = COMMAND_PLAYED;
            command.clip = clip as u32;
            command.fade = fade;
        }
        InstanceChange::Paced { speed, .. } => {
            command.kind = COMMAND_PACED;
            command.clock.speed = speed;
        }
        InstanceChange::Replaced(_) => {
            let inst = crowd.instance(now);
            command.kind = COMMAND_REPLACED;
            command.walker.flags = walker_flags(inst.playback(), crowd.look_of(now).0);
            // Its place's distance and stride are kept (crowd_state_apply.comp).
            command.clock = clock_of(inst, 0.0, 1.0);
        }
        InstanceChange::Restyled(_) => {
            command.kind = COMMAND_RESTYLED;
            command.walker.flags = walker_flags(Playback::Loop, crowd.look_of(now).0);
        }
        InstanceChange::Spawned(_) | InstanceChange::Despawned { .. } => return None,
    }
    Some(command)
}

#[cfg(test)]
mod tests;
