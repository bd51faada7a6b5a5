//! The playback's pedestrians on the device, part of the crowd's state there: per slot of the
//! pool what the GPU keeps of its pedestrian and its ring of samples (device-local, advanced
//! in place by `shaders/track_step.comp`), the gaits and stance profiles the rules read, and
//! per frame in flight the host-written slot changes and samples the frame applies first
//! ([`crate::motion::TracksOnDevice`] makes them). Owned by
//! [`crate::gpu::features::crowd_state::state::DeviceCrowdState`].

use std::sync::Arc;

use ash::vk;
use gpu_allocator::MemoryLocation;

use crate::gpu::device::buffer::GpuBuffer;
use crate::gpu::device::context::GpuContext;
use crate::gpu::device::error::GpuError;
use crate::motion::{
    DeviceSample, DeviceSampleWrite, DeviceTrack, DeviceTrackCommand, DeviceTrackStep,
    DeviceTrackTables,
};

/// What the tracks' passes bind (plain handles, copied into the frame's shared data).
#[derive(Clone, Copy, Debug)]
pub struct TracksBinding {
    /// Per slot: [`DeviceTrack`], read and written.
    pub tracks: vk::Buffer,
    /// Per slot, its ring of [`DeviceSample`]s.
    pub samples: vk::Buffer,
    /// Per crowd model: [`crate::motion::DeviceGaits`].
    pub gaits: vk::Buffer,
    /// The stance profiles.
    pub stances: vk::Buffer,
    /// The frame in flight's slot changes and sample writes (host-written).
    pub commands: vk::Buffer,
    /// See `commands`.
    pub writes: vk::Buffer,
    /// Colouring by density: per bucket of the hash of cells, the first slot in it (then
    /// `next` from slot to slot); null handles otherwise.
    pub density_heads: vk::Buffer,
    /// See `density_heads`: per slot, the next slot in its bucket.
    pub density_next: vk::Buffer,
    /// The frame's step, its counts those of `commands` and `writes`.
    pub step: DeviceTrackStep,
}

/// Colouring by density: the hash of cells the neighbours are counted in, refilled every
/// frame (`shaders/track_density_insert.comp`).
struct DensityHash {
    heads: GpuBuffer,
    next: GpuBuffer,
    buckets: u32,
}

/// Per frame in flight: the host's uploads, grown when a frame brings more.
struct Uploads {
    commands: GpuBuffer,
    writes: GpuBuffer,
}

/// See the module documentation.
pub struct DeviceTracks {
    ctx: Arc<GpuContext>,
    tracks: GpuBuffer,
    samples: GpuBuffer,
    gaits: GpuBuffer,
    stances: GpuBuffer,
    density: Option<DensityHash>,
    slots: Vec<Uploads>,
    /// The step the next frame applies, and the uploads it brings (several steps given
    /// before one frame add up).
    step: DeviceTrackStep,
    commands: Vec<DeviceTrackCommand>,
    writes: Vec<DeviceSampleWrite>,
    /// What the frame in flight's buffers were given, per frame in flight.
    counts: Vec<(u32, u32)>,
}

impl DeviceTracks {
    /// A pool of `slots` slots with rings of `ring` samples, reading `tables` (and with the
    /// hash its colouring by density counts in, when it has one), for `frames` frames in
    /// flight.
    pub fn new(
        ctx: &Arc<GpuContext>,
        slots: usize,
        ring: u32,
        tables: &DeviceTrackTables,
        frames: usize,
    ) -> Result<Self, GpuError> {
        let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
        let empty = vec![DeviceTrack::default(); slots.max(1)];
        let samples = (slots.max(1) * ring.max(1) as usize * size_of::<DeviceSample>()) as u64;
        let density = match tables.density_buckets {
            0 => None,
            // The shaders take a bucket by masking the cell's hash.
            buckets if !buckets.is_power_of_two() => {
                return Err(GpuError::Other(format!(
                    "the density hash's {buckets} buckets are not a power of two"
                )));
            }
            buckets => {
                let words = |name: &str, count: usize| {
                    GpuBuffer::new(
                        ctx,
                        name,
                        (count.max(1) * size_of::<u32>()) as u64,
                        storage | vk::BufferUsageFlags::TRANSFER_DST,
                        MemoryLocation::GpuOnly,
                        16,
                    )
                };
                Some(DensityHash {
                    heads: words("crowd track density cells", buckets as usize)?,
                    next: words("crowd track density lists", slots)?,
                    buckets,
                })
            }
        };
        Ok(Self {
            ctx: ctx.clone(),
            tracks: GpuBuffer::with_data(
                ctx,
                "crowd tracks",
                storage | vk::BufferUsageFlags::TRANSFER_SRC,
                bytemuck::cast_slice(&empty),
            )?,
            samples: GpuBuffer::new(
                ctx,
                "crowd track samples",
                samples,
                storage,
                MemoryLocation::GpuOnly,
                16,
            )?,
            gaits: GpuBuffer::with_data(
                ctx,
                "crowd track gaits",
                storage,
                bytemuck::cast_slice(&tables.gaits),
            )?,
            stances: GpuBuffer::with_data(
                ctx,
                "crowd track stances",
                storage,
                bytemuck::cast_slice(&tables.stances),
            )?,
            density,
            slots: (0..frames)
                .map(|f| uploads(ctx, f, 256, 4096))
                .collect::<Result<_, _>>()?,
            step: DeviceTrackStep {
                count: slots as u32,
                ring,
                ..DeviceTrackStep::default()
            },
            commands: Vec::new(),
            writes: Vec::new(),
            counts: vec![(0, 0); frames],
        })
    }

    /// The next frame's step, with the uploads it brings, taken from `commands` and `writes`
    /// (exchanged for the emptied lists held, so no sample is copied here: the frame copies
    /// them once into its upload buffers; added to those not yet handed to a frame).
    pub fn set_step(
        &mut self,
        step: DeviceTrackStep,
        commands: &mut Vec<DeviceTrackCommand>,
        writes: &mut Vec<DeviceSampleWrite>,
    ) {
        self.step = step;
        take_into(&mut self.commands, commands);
        take_into(&mut self.writes, writes);
    }

    /// Hands the uploads given since the last frame to frame in flight `slot` (the caller
    /// waited for the frame that used it last), its buffers grown if they must.
    pub fn write(&mut self, slot: usize) -> Result<(), GpuError> {
        let Some(buffers) = self.slots.get_mut(slot) else {
            return Err(GpuError::Other(format!("no track buffers for slot {slot}")));
        };
        let command_bytes: &[u8] = bytemuck::cast_slice(&self.commands);
        let write_bytes: &[u8] = bytemuck::cast_slice(&self.writes);
        if command_bytes.len() as u64 > buffers.commands.size
            || write_bytes.len() as u64 > buffers.writes.size
        {
            *buffers = uploads(
                &self.ctx,
                slot,
                self.commands.len().next_power_of_two(),
                self.writes.len().next_power_of_two(),
            )?;
        }
        buffers.commands.write(0, command_bytes)?;
        buffers.writes.write(0, write_bytes)?;
        self.counts[slot] = (self.commands.len() as u32, self.writes.len() as u32);
        self.commands.clear();
        self.writes.clear();
        Ok(())
    }

    /// Frame in flight `slot`'s binding, its step taken: a frame given no new step shows the
    /// same time again (dt 0).
    pub fn take_binding(&mut self, slot: usize) -> Result<TracksBinding, GpuError> {
        let (Some(buffers), Some(&(commands, writes))) =
            (self.slots.get(slot), self.counts.get(slot))
        else {
            return Err(GpuError::Other(format!("no track buffers for slot {slot}")));
        };
        let mut step = self.step;
        step.commands = commands;
        step.writes = writes;
        // The hash this pool was made with, whatever the step asked for.
        step.density_buckets = self.density.as_ref().map_or(0, |d| d.buckets);
        let density =
            |f: fn(&DensityHash) -> vk::Buffer| self.density.as_ref().map_or(vk::Buffer::null(), f);
        self.counts[slot] = (0, 0);
        self.step.dt = 0.0;
        Ok(TracksBinding {
            tracks: self.tracks.buffer,
            samples: self.samples.buffer,
            gaits: self.gaits.buffer,
            stances: self.stances.buffer,
            commands: buffers.commands.buffer,
            writes: buffers.writes.buffer,
            density_heads: density(|d| d.heads.buffer),
            density_next: density(|d| d.next.buffer),
            step,
        })
    }

    /// Whether the pedestrians are coloured by density (the frame then counts neighbours).
    pub fn by_density(&self) -> bool {
        self.density.is_some()
    }

    /// The slots' state as the device holds it (the caller waited for every frame).
    pub fn read_tracks(&self) -> Result<Vec<DeviceTrack>, GpuError> {
        let count = self.step.count as usize;
        let mut tracks = vec![DeviceTrack::default(); count];
        crate::gpu::device::buffer::read_buffer(
            &self.ctx,
            "reading the crowd's tracks",
            self.tracks.buffer,
            0,
            bytemuck::cast_slice_mut(&mut tracks),
        )?;
        Ok(tracks)
    }
}

/// Moves `from`'s items to the end of `to`, leaving `from` empty: an exchange of the lists
/// when `to` is empty (its room goes back to the caller).
fn take_into<T>(to: &mut Vec<T>, from: &mut Vec<T>) {
    if to.is_empty() {
        std::mem::swap(to, from);
    } else {
        to.append(from);
    }
    from.clear();
}

/// Frame in flight `slot`'s upload buffers, with room for `commands` and `writes`.
fn uploads(
    ctx: &Arc<GpuContext>,
    slot: usize,
    commands: usize,
    writes: usize,
) -> Result<Uploads, GpuError> {
    let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let make = |name: String, bytes: usize| {
        GpuBuffer::new(
            ctx,
            &name,
            bytes.max(16) as u64,
            storage,
            MemoryLocation::CpuToGpu,
            16,
        )
    };
    Ok(Uploads {
        commands: make(
            format!("track changes {slot}"),
            commands.max(1) * size_of::<DeviceTrackCommand>(),
        )?,
        writes: make(
            format!("track samples {slot}"),
            writes.max(1) * size_of::<DeviceSampleWrite>(),
        )?,
    })
}
