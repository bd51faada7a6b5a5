//! The crowd's state on the device: the tables of a [`DeviceMotion`] in device-local buffers
//! (uploaded once, when the state moves to the GPU), the clocks the crowd-state pass advances
//! every frame in place (`shaders/crowd_state.comp`, [`crate::gpu::features::crowd_state::passes`]), and the
//! step the next frame applies.
//!
//! The near set: the pass lists the instances whose baked frames' error could show (up to
//! [`NEAR_CAPACITY`]) in a host-readable buffer of its frame in flight. When that frame in
//! flight comes round again, the CPU reads the list, brings each listed clock up to the new
//! frame by the CPU's own rules ([`catch_up`], with the steps given since, kept here), writes
//! exact palettes into the ring slot and the list of records to point at them, which the
//! pass's second dispatch applies. The near set is thus a frame in flight late (two or three
//! frames), and the CPU visits only it.

use std::sync::Arc;

use ash::vk;

use crate::anim::{Mat3x4, SkinnedModel, SkinnedModelInstance};
use crate::crowd::{Crowd, InstanceChange};
use crate::gpu::device::buffer::{GpuBuffer, read_buffer};
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::gpu::features::crowd_state::tracks::{DeviceTracks, TracksBinding};
use crate::gpu::frame::shader_interface::{
    NEAR_BAND_FIRST_OCTAVE, NEAR_BANDS, NEAR_BANDS_PER_OCTAVE,
};
use crate::motion::{
    DeviceChanges, DeviceClock, DeviceCommand, DeviceMotion, DeviceStep, DeviceWalker,
    NearInstance, catch_up,
};
use buffers::{commands_buffer, slot_buffers, slot_buffers_mut};

/// The most instances one frame lists as needing exact palettes (those beyond read baked
/// frames).
pub const NEAR_CAPACITY: usize = 8192;
/// Frames of steps kept for bringing listed clocks up to date: more than a ring has frames
/// in flight.
const HISTORY: usize = 16;
/// The near list's header: its count (padded to 16 bytes), then per distance band the
/// instances that needed exact palettes and their matrices (`NearList` in
/// shaders/crowd_state.comp).
pub const NEAR_HEADER: usize = 16 + 2 * NEAR_BANDS as usize * 4;

/// Where distance band `band` starts, in world units (`near_band` in
/// shaders/crowd_state.comp puts a distance in its band).
pub fn near_band_start(band: usize) -> f32 {
    let octaves = band as f32 / NEAR_BANDS_PER_OCTAVE as f32 - NEAR_BAND_FIRST_OCTAVE as f32;
    octaves.exp2()
}

/// How near a frame lists instances needing exact palettes, from an earlier frame's count of
/// them per distance band (`instances`, `matrices`): everything when they all fit in
/// `room_instances` and `room_matrices`, else up to the start of the first band that no
/// longer fits, so the nearest are listed and exact, as the CPU path keeps them.
pub fn near_within(
    instances: &[u32],
    matrices: &[u32],
    room_instances: usize,
    room_matrices: usize,
) -> f32 {
    let (mut n, mut m) = (0usize, 0usize);
    for (band, (&i, &j)) in instances.iter().zip(matrices).enumerate() {
        n += i as usize;
        m += j as usize;
        if n > room_instances || m > room_matrices {
            return near_band_start(band);
        }
    }
    f32::MAX
}
/// The changes made through the crowd's API a frame in flight has room for at first (its
/// buffer grows to the most a frame has made).
pub const COMMAND_CAPACITY: usize = 4096;

/// What the crowd-state pass binds (plain handles, copied into the frame's shared data).
#[derive(Clone, Copy, Debug)]
pub struct CrowdStateBinding {
    /// Per instance: [`crate::motion::DeviceWalker`].
    pub walkers: vk::Buffer,
    /// Per instance: [`DeviceClock`], read and written by the pass.
    pub clocks: vk::Buffer,
    /// Per model: [`crate::motion::DeviceModel`].
    pub models: vk::Buffer,
    /// Per model clip: [`crate::motion::DeviceClip`].
    pub clips: vk::Buffer,
    /// The baked frames' times.
    pub times: vk::Buffer,
    /// The frame's step (the pass's push constants).
    pub step: DeviceStep,
    /// The frame in flight's near list (written by the pass, read by the CPU afterwards).
    pub near: vk::Buffer,
    /// The frame in flight's exact instances (`[record, first palette]` pairs, written by
    /// the CPU).
    pub exact: vk::Buffer,
    /// How many exact instances it holds.
    pub exact_count: u32,
    /// The frame in flight's changes made through the crowd's API ([`DeviceCommand`]s,
    /// written by the CPU), applied before the frame advances.
    pub commands: vk::Buffer,
    /// How many it holds.
    pub command_count: u32,
    /// A playback's pedestrians, when the crowd has them ([`DeviceTracks`]).
    pub tracks: Option<TracksBinding>,
}

/// Per frame in flight: its near list, its exact instances, and the frame that listed.
struct SlotBuffers {
    near: GpuBuffer,
    exact: GpuBuffer,
    exact_count: u32,
    commands: GpuBuffer,
    command_count: u32,
    /// The commands `commands` has room for.
    command_room: usize,
    /// The number of the frame whose pass last wrote `near` (`None`: never).
    listed_by: Option<u64>,
    /// The most entries that frame could write.
    listed_capacity: usize,
}

/// The buffers; see the module documentation.
pub struct DeviceCrowdState {
    ctx: Arc<GpuContext>,
    walkers: GpuBuffer,
    clocks: GpuBuffer,
    models: GpuBuffer,
    clips: GpuBuffer,
    times: GpuBuffer,
    /// The instances `walkers` and `clocks` have room for.
    room: usize,
    /// The copy's instances and record slots as the commands given leave them.
    changes_of: DeviceChanges,
    /// The step the next frame applies (a zero step until the caller gives one: the records
    /// are written, nothing moves).
    step: DeviceStep,
    /// Per frame in flight.
    slots: Vec<SlotBuffers>,
    /// The frames recorded so far; the next is `frames + 1`.
    frames: u64,
    /// The last frames' steps, by frame number modulo [`HISTORY`].
    history: [(u64, DeviceStep); HISTORY],
    /// Reused each frame (no allocation once grown).
    listed: Vec<NearInstance>,
    exact: Vec<[u32; 2]>,
    steps: Vec<DeviceStep>,
    instances: Vec<SkinnedModelInstance>,
    /// Instances given exact palettes in the last frame, and their matrices.
    last_exact: (usize, usize),
    /// How near the next frame lists instances needing exact palettes ([`near_within`]).
    near_within: f32,
    /// The palette matrices the last frame had room for (the near set's bound, with
    /// [`NEAR_CAPACITY`]).
    matrix_room: usize,
    /// The near list's header as last read (count, padding, the two band counts).
    header: Vec<u32>,
    /// The most instances a frame lists ([`Self::set_near_capacity`]).
    capacity: usize,
    /// The commands of the changes made through the crowd's API since the last frame.
    pending: Vec<DeviceCommand>,
    changes: Vec<InstanceChange>,
    /// Per instance, the number of the frame that applied its last change through the
    /// crowd's API (0: none): a near list written before it holds a clock the change replaced.
    changed_at: Vec<u64>,
    /// A playback's pedestrians, placed and paced on the GPU before the step.
    tracks: Option<DeviceTracks>,
}

impl DeviceCrowdState {
    /// Uploads `motion`'s tables, with near lists for `slots` frames in flight.
    pub fn upload(
        ctx: &Arc<GpuContext>,
        motion: &DeviceMotion,
        slots: usize,
    ) -> Result<Self, GpuError> {
        let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
        // A buffer holds at least one element: an empty crowd still binds its tables.
        fn bytes<T: bytemuck::Pod + Default>(items: &[T]) -> Vec<u8> {
            if items.is_empty() {
                bytemuck::bytes_of(&T::default()).to_vec()
            } else {
                bytemuck::cast_slice(items).to_vec()
            }
        }
        let upload = |name: &str, usage: vk::BufferUsageFlags, data: Vec<u8>| {
            GpuBuffer::with_data(ctx, name, usage, &data)
        };
        Ok(Self {
            ctx: ctx.clone(),
            walkers: upload(
                "crowd walkers",
                storage | vk::BufferUsageFlags::TRANSFER_SRC,
                bytes(&motion.walkers),
            )?,
            clocks: upload(
                "crowd clocks",
                storage | vk::BufferUsageFlags::TRANSFER_SRC,
                bytes(&motion.clocks),
            )?,
            models: upload("crowd state models", storage, bytes(&motion.models))?,
            clips: upload("crowd state clips", storage, bytes(&motion.clips))?,
            times: upload("baked frame times", storage, bytes(&motion.frame_times))?,
            room: motion.walkers.len().max(1),
            changes_of: DeviceChanges::new(&motion.walkers, COMMAND_CAPACITY),
            step: DeviceStep {
                count: motion.walkers.len() as u32,
                ..DeviceStep::default()
            },
            slots: (0..slots)
                .map(|s| slot_buffers(ctx, s))
                .collect::<Result<_, _>>()?,
            frames: 0,
            history: [(0, DeviceStep::default()); HISTORY],
            listed: Vec::with_capacity(NEAR_CAPACITY),
            exact: Vec::with_capacity(NEAR_CAPACITY),
            steps: Vec::with_capacity(HISTORY),
            instances: Vec::with_capacity(NEAR_CAPACITY),
            last_exact: (0, 0),
            near_within: f32::MAX,
            matrix_room: usize::MAX,
            header: vec![0; NEAR_HEADER / 4],
            capacity: NEAR_CAPACITY,
            pending: Vec::with_capacity(COMMAND_CAPACITY),
            changes: Vec::with_capacity(COMMAND_CAPACITY),
            changed_at: vec![0; motion.walkers.len()],
            tracks: None,
        })
    }

    /// Hands the changes made through `crowd`'s API since the last frame to frame in flight
    /// `slot`, all of them, in order: spawns and despawns included, so that the copy holds
    /// `crowd.len()` instances from that frame on. The copy's tables grow (waiting for the
    /// device) when the crowd is larger than ever; the frame's list of commands when it has
    /// more than ever.
    pub fn write_changes(&mut self, slot: usize, crowd: &mut Crowd) -> Result<(), GpuError> {
        self.changes.clear();
        self.changes.extend(crowd.take_changes());
        // What the copy will hold once these changes are made: refused up front, so that a
        // wrong crowd leaves the copy as it was.
        let after = self.changes_of.len_after(&self.changes);
        if after != crowd.len() {
            // Another crowd than the one whose state moved to the GPU (or one whose changes
            // were not tracked).
            return Err(GpuError::Other(format!(
                "the crowd has {} instances, its state on the GPU {}: render the crowd whose \
                 state moved there (Renderer::set_crowd_state)",
                crowd.len(),
                self.changes_of.len()
            )));
        }
        self.pending.clear();
        let most = self
            .changes_of
            .commands(&self.changes, crowd, &mut self.pending);
        self.ensure_room(most)?;
        if self.changed_at.len() < most {
            self.changed_at.resize(most, 0);
        }
        // Applied by the coming frame, whose number is one on.
        let frame = self.frames + 1;
        for command in &self.pending {
            if let Some(at) = self.changed_at.get_mut(command.instance as usize) {
                *at = frame;
            }
        }
        let ctx = self.ctx.clone();
        let buffers = slot_buffers_mut(&mut self.slots, slot)?;
        if self.pending.len() > buffers.command_room {
            let room = self.pending.len().next_power_of_two();
            buffers.commands = commands_buffer(&ctx, slot, room)?;
            buffers.command_room = room;
        }
        buffers
            .commands
            .write(0, bytemuck::cast_slice(&self.pending))?;
        buffers.command_count = self.pending.len() as u32;
        if let Some(tracks) = self.tracks.as_mut() {
            tracks.write(slot)?;
        }
        Ok(())
    }

    /// Grows the walkers and clocks to hold `instances` (at least doubling), keeping what the
    /// device holds: the frames in flight are waited for, the old tables copied on the device.
    fn ensure_room(&mut self, instances: usize) -> Result<(), GpuError> {
        if instances <= self.room {
            return Ok(());
        }
        let room = instances.max(2 * self.room);
        self.ctx.wait_idle();
        let walker = size_of::<DeviceWalker>();
        let clock = size_of::<DeviceClock>();
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
        let bytes = |n: usize, each: usize| (n * each) as u64;
        self.walkers = self.walkers.grown(
            "crowd walkers",
            usage,
            bytes(self.room, walker),
            bytes(room, walker),
        )?;
        self.clocks = self.clocks.grown(
            "crowd clocks",
            usage,
            bytes(self.room, clock),
            bytes(room, clock),
        )?;
        log::debug!("crowd state on the GPU grew to {room} instances");
        self.room = room;
        Ok(())
    }

    /// Gives the crowd a playback's pedestrians to place and pace on the GPU (or takes them
    /// away).
    pub fn set_tracks(&mut self, tracks: Option<DeviceTracks>) {
        self.tracks = tracks;
    }

    /// The playback's pedestrians, when the crowd has them.
    pub fn tracks_mut(&mut self) -> Option<&mut DeviceTracks> {
        self.tracks.as_mut()
    }

    /// Whether a playback's pedestrians are placed on the GPU.
    pub fn has_tracks(&self) -> bool {
        self.tracks.is_some()
    }

    /// Whether they are coloured by density (counted among their neighbours on the GPU).
    pub fn tracks_by_density(&self) -> bool {
        self.tracks.as_ref().is_some_and(DeviceTracks::by_density)
    }

    /// Reads the near list frame in flight `slot` holds (the caller waited for the frame
    /// that wrote it): how many palette matrices its instances need, of `models`.
    pub fn read_near(
        &mut self,
        slot: usize,
        models: &[Arc<SkinnedModel>],
    ) -> Result<usize, GpuError> {
        self.listed.clear();
        let Some(buffers) = self.slots.get(slot) else {
            return Ok(0);
        };
        if buffers.listed_by.is_none() {
            return Ok(0);
        }
        buffers
            .near
            .read(0, bytemuck::cast_slice_mut(&mut self.header))?;
        let bands = NEAR_BANDS as usize;
        let (instances, matrices) = self.header[4..].split_at(bands);
        self.near_within = near_within(instances, matrices, self.capacity, self.matrix_room);
        log::debug!(
            "near list of slot {slot}: {} needed exact palettes, {} listed; the next lists within {}",
            instances.iter().sum::<u32>(),
            self.header[0],
            self.near_within
        );
        let listed = (self.header[0] as usize).min(buffers.listed_capacity);
        self.listed.resize(listed, NearInstance::default());
        buffers
            .near
            .read(NEAR_HEADER, bytemuck::cast_slice_mut(&mut self.listed))?;
        Ok(self
            .listed
            .iter()
            .map(|e| models.get(e.model as usize).map_or(0, |m| m.joint_count()))
            .sum())
    }

    /// Evaluates the exact palettes of the instances [`Self::read_near`] read, as they stand
    /// in the coming frame, into `palettes` (at most `max_matrices`, the rest stay baked) on
    /// `crowd`'s worker threads, and writes frame in flight `slot`'s list of records to point
    /// at them.
    pub fn write_exact(
        &mut self,
        slot: usize,
        crowd: &mut Crowd,
        palettes: &mut [Mat3x4],
        max_matrices: usize,
    ) -> Result<(), GpuError> {
        self.exact.clear();
        // The steps since the listing frame, then the coming frame's.
        let listed_by = self
            .slots
            .get(slot)
            .and_then(|s| s.listed_by)
            .unwrap_or(self.frames);
        self.steps.clear();
        for frame in listed_by + 1..=self.frames {
            let (number, step) = self.history[frame as usize % HISTORY];
            if number != frame {
                // Older than the history holds: leave the list alone this frame.
                self.listed.clear();
                break;
            }
            self.steps.push(step);
        }
        self.steps.push(self.step);
        let room = palettes.len().min(max_matrices);
        // The ring grows to what a list needs, up to `max_matrices`: that, not this slot's
        // present size, bounds the lists to come.
        self.matrix_room = max_matrices;
        let mut base = 0usize;
        for near in &self.listed {
            let Some(model) = crowd.models().get(near.model as usize) else {
                continue;
            };
            let joints = model.joint_count();
            if base + joints > room || (near.instance as usize) >= self.len() {
                continue;
            }
            // Changed through the crowd's API since it was listed: its listed clock is stale
            // (it stays baked until it is listed again).
            if self
                .changed_at
                .get(near.instance as usize)
                .is_some_and(|&at| at > listed_by)
            {
                continue;
            }
            let Some(inst) = catch_up(near, model, &self.steps) else {
                continue;
            };
            self.instances.push(inst);
            self.exact.push([near.slot, base as u32]);
            base += joints;
        }
        crowd.evaluate_detached(&self.instances, &mut palettes[..base]);
        self.instances.clear();
        let buffers = slot_buffers_mut(&mut self.slots, slot)?;
        buffers.exact.write(0, bytemuck::cast_slice(&self.exact))?;
        buffers.exact_count = self.exact.len() as u32;
        self.last_exact = (self.exact.len(), base);
        Ok(())
    }

    /// Lists at most `capacity` instances a frame for exact palettes (at most, and by default,
    /// [`NEAR_CAPACITY`]): the nearest that need them, the rest reading baked frames. Bounds
    /// the CPU's exact palettes per frame.
    pub fn set_near_capacity(&mut self, capacity: usize) {
        self.capacity = capacity.min(NEAR_CAPACITY);
    }

    /// Instances given exact palettes in the last frame, and their palette matrices.
    pub fn exact_counts(&self) -> (usize, usize) {
        self.last_exact
    }

    /// Instances.
    pub fn len(&self) -> usize {
        self.changes_of.len()
    }

    /// Instance `i`'s record slot, as the changes handed to frames so far leave it.
    pub fn record_of(&self, i: usize) -> Option<usize> {
        self.changes_of.slot_of(i).map(|s| s as usize)
    }

    /// Whether it holds no instance.
    pub fn is_empty(&self) -> bool {
        self.changes_of.is_empty()
    }

    /// The step the next frame applies.
    pub fn set_step(&mut self, step: DeviceStep) {
        self.step = step;
    }

    /// Frame in flight `slot`'s bindings for the next frame, its step taken (listing up to
    /// [`NEAR_CAPACITY`] near instances when `near`): a frame the caller gives no new step
    /// moves nothing (dt 0, no turns).
    pub fn take_binding(&mut self, slot: usize, near: bool) -> Result<CrowdStateBinding, GpuError> {
        self.frames += 1;
        let mut step = self.step;
        // The copy's own count: the changes handed to this frame set it.
        step.count = self.len() as u32;
        step.near_capacity = if near { self.capacity as u32 } else { 0 };
        step.near_within = self.near_within;
        self.history[self.frames as usize % HISTORY] = (self.frames, step);
        let frames = self.frames;
        let buffers = slot_buffers_mut(&mut self.slots, slot)?;
        buffers.listed_by = Some(frames);
        buffers.listed_capacity = step.near_capacity as usize;
        let (near_buffer, exact, exact_count) = (
            buffers.near.buffer,
            buffers.exact.buffer,
            buffers.exact_count,
        );
        let (commands, command_count) = (buffers.commands.buffer, buffers.command_count);
        buffers.exact_count = 0;
        buffers.command_count = 0;
        let tracks = self
            .tracks
            .as_mut()
            .map(|t| t.take_binding(slot))
            .transpose()?;
        // The next frame moves nothing unless given a step of its own.
        self.step = DeviceStep {
            dt: 0.0,
            changes: 0,
            ..step
        };
        Ok(CrowdStateBinding {
            walkers: self.walkers.buffer,
            clocks: self.clocks.buffer,
            models: self.models.buffer,
            clips: self.clips.buffer,
            times: self.times.buffer,
            step,
            near: near_buffer,
            exact,
            exact_count,
            commands,
            command_count,
            tracks,
        })
    }

    /// The clocks as the device holds them (the caller waited for every frame).
    pub fn read_clocks(&self) -> Result<Vec<DeviceClock>, GpuError> {
        let mut clocks = vec![DeviceClock::default(); self.len()];
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut clocks);
        read_buffer(
            &self.ctx,
            "reading the crowd's clocks",
            self.clocks.buffer,
            0,
            bytes,
        )?;
        Ok(clocks)
    }
}

mod buffers;
#[cfg(test)]
mod tests;
