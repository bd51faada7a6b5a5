//! The renderer's side of the crowd's state on the GPU: moving it there and back, the step
//! each frame advances by, and what tests and tools read back of it (clocks, records,
//! palettes).

use super::Renderer;
use crate::anim::Mat3x4;
use crate::crowd::{AnimationCounts, Crowd, InstanceRecord};
use crate::gpu::device::buffer::read_buffer;
use crate::gpu::device::error::GpuError;
use crate::gpu::features::crowd_state::state::DeviceCrowdState;
use crate::gpu::features::crowd_state::tracks::DeviceTracks;
use crate::motion::{
    CrowdMotion, DeviceClock, DeviceMotion, DeviceSampleWrite, DeviceStep, DeviceTrack,
    DeviceTrackCommand, DeviceTrackStep, DeviceTrackTables, Playback, TracksOnDevice,
};

impl Renderer {
    /// Moves `crowd`'s state to the GPU (`Some`: the tables [`CrowdMotion::on_device`] made
    /// of it as it stands) or back to the CPU (`None`). On the GPU, the crowd-state pass
    /// advances every instance by the step [`Self::step_crowd_state`] gave and writes its
    /// record; the crowd passed to [`Self::render`] is then read for its size, models, bounds
    /// and slot ranges, and for the changes made through its API ([`Crowd::set_world`],
    /// [`Crowd::play`], [`Crowd::instance_mut`]), which each frame applies before it
    /// advances; the crowd's own clocks stand still.
    ///
    /// [`CrowdMotion::on_device`]: crate::motion::CrowdMotion::on_device
    pub fn set_crowd_state(
        &mut self,
        crowd: &mut Crowd,
        motion: Option<&DeviceMotion>,
    ) -> Result<(), GpuError> {
        // Frames in flight may read the old tables.
        self.wait_idle()?;
        self.features.crowd_state = motion
            .map(|m| DeviceCrowdState::upload(&self.ctx, m, self.frames.ring.slot_count()))
            .transpose()?;
        crowd.set_change_tracking(self.features.crowd_state.is_some());
        Ok(())
    }

    /// With the crowd's state on the GPU: its instances from the step's base on are a
    /// playback's pool of `slots` slots (rings of `ring` samples, reading `tables`), which
    /// each frame places and paces on the GPU from the tracks [`Self::step_crowd_tracks`]
    /// hands it ([`crate::motion::TracksOnDevice`] makes them) before the crowd-state pass
    /// advances them. Refused without the state on the GPU.
    pub fn set_crowd_tracks(
        &mut self,
        slots: usize,
        ring: u32,
        tables: &DeviceTrackTables,
    ) -> Result<(), GpuError> {
        self.wait_idle()?;
        let frames = self.frames.ring.slot_count();
        let state = self.features.crowd_state.as_mut().ok_or_else(|| {
            GpuError::Other("a playback's tracks need the crowd's state on the GPU".into())
        })?;
        state.set_tracks(Some(DeviceTracks::new(
            &self.ctx, slots, ring, tables, frames,
        )?));
        Ok(())
    }

    /// Puts `playback`'s pedestrians on the GPU: `crowd` (the scenery, then the pool `tracks`
    /// spawned) has its state moved to the GPU, standing where it is put and changing clips
    /// only when told ([`CrowdMotion::still`]), and the pool's tables are uploaded
    /// ([`Self::set_crowd_tracks`]). The crowd's models, baked frames and looks are uploaded
    /// first; each frame then takes [`TracksOnDevice::advance_to`]'s step and uploads
    /// ([`Self::step_crowd_tracks`]) and a held step for the crowd state
    /// ([`DeviceStep::held`]).
    pub fn set_crowd_playback(
        &mut self,
        crowd: &mut Crowd,
        tracks: &TracksOnDevice,
        playback: &Playback,
    ) -> Result<(), GpuError> {
        let tables = CrowdMotion::still(crowd.len())
            .on_device(crowd)
            .map_err(|e| GpuError::Other(e.to_string()))?;
        self.set_crowd_state(crowd, Some(&tables))?;
        let pool = tracks.tables(playback, crowd.models().len());
        self.set_crowd_tracks(tracks.slots(), tracks.ring(), &pool)
    }

    /// The tracks' step the next frame applies, with the slot changes and samples it brings
    /// (from [`crate::motion::TracksOnDevice::advance_to`] and its uploads), taken from the
    /// lists given (which are left empty, holding the room of lists the renderer is done
    /// with); a frame given none shows the same time again. Does nothing without tracks.
    pub fn step_crowd_tracks(
        &mut self,
        step: DeviceTrackStep,
        commands: &mut Vec<DeviceTrackCommand>,
        writes: &mut Vec<DeviceSampleWrite>,
    ) {
        if let Some(tracks) = self
            .features
            .crowd_state
            .as_mut()
            .and_then(|s| s.tracks_mut())
        {
            tracks.set_step(step, commands, writes);
        }
    }

    /// The pool's slots as the GPU holds them, after every frame submitted (`None` without
    /// tracks). For tests and diagnostics: it waits for the device.
    pub fn read_crowd_tracks(&mut self) -> Result<Option<Vec<DeviceTrack>>, GpuError> {
        self.wait_idle()?;
        self.features
            .crowd_state
            .as_mut()
            .and_then(|s| s.tracks_mut())
            .map(|t| t.read_tracks())
            .transpose()
    }

    /// With the crowd's state on the GPU: lists at most `capacity` instances a frame for exact
    /// palettes (at most, and by default, [`NEAR_CAPACITY`]); when more need them, the nearest
    /// are exact and the rest read baked frames, as on the CPU path. Bounds the CPU's exact
    /// palettes per frame. Without the state on the GPU it does nothing.
    ///
    /// [`NEAR_CAPACITY`]: crate::gpu::features::crowd_state::state::NEAR_CAPACITY
    pub fn set_near_capacity(&mut self, capacity: usize) {
        if let Some(state) = self.features.crowd_state.as_mut() {
            state.set_near_capacity(capacity);
        }
    }

    /// Whether the crowd's state lives on the GPU.
    pub fn has_crowd_state(&self) -> bool {
        self.features.crowd_state.is_some()
    }

    /// With the crowd's state on the GPU, how the last frame's palettes were made: exact for
    /// the near set the CPU evaluated, baked for the rest (`None` on the CPU path, where the
    /// crowd says: [`Crowd::counts`]).
    pub fn crowd_state_counts(&self, crowd: &Crowd) -> Option<AnimationCounts> {
        self.features.crowd_state.as_ref().map(|s| {
            let (exact, palette_matrices) = s.exact_counts();
            AnimationCounts {
                exact,
                baked: crowd.len().saturating_sub(exact),
                palette_matrices,
            }
        })
    }

    /// The step the next frame's crowd-state pass applies (from
    /// [`CrowdMotion::advance_on_device`]); a frame given none moves nothing.
    ///
    /// [`CrowdMotion::advance_on_device`]: crate::motion::CrowdMotion::advance_on_device
    pub fn step_crowd_state(&mut self, step: DeviceStep) {
        if let Some(state) = &mut self.features.crowd_state {
            state.set_step(step);
        }
    }

    /// Where instance `i`'s record is in a frame's ring slot while the crowd's state lives on
    /// the GPU (records stay dense as instances come and go, so the slot of an instance may
    /// change when another is despawned); `None` on the CPU path ([`Crowd::placement`]) or
    /// for an instance the GPU's copy does not hold.
    pub fn crowd_record_of(&self, i: usize) -> Option<usize> {
        self.features.crowd_state.as_ref()?.record_of(i)
    }

    /// The crowd's clocks as the GPU holds them, after every frame submitted (`None` while
    /// the state lives on the CPU). For tests and diagnostics: it waits for the device.
    pub fn read_crowd_clocks(&mut self) -> Result<Option<Vec<DeviceClock>>, GpuError> {
        self.wait_idle()?;
        self.features
            .crowd_state
            .as_ref()
            .map(DeviceCrowdState::read_clocks)
            .transpose()
    }

    /// The instance records the last frame drew from, in slot order, whoever wrote them (the
    /// CPU or the crowd-state pass). For tests and diagnostics: it waits for the device.
    pub fn read_records(&mut self, count: usize) -> Result<Vec<InstanceRecord>, GpuError> {
        let count = count.min(self.frames.ring.layout().instances);
        self.read_last_slot("reading instance records", 0, count)
    }

    /// The first `count` palette matrices of the last frame's ring slot (exact palettes, in
    /// the order the CPU wrote them). For tests and diagnostics: it waits for the device.
    pub fn read_palettes(&mut self, count: usize) -> Result<Vec<Mat3x4>, GpuError> {
        let layout = self.frames.ring.layout();
        self.read_last_slot(
            "reading palettes",
            layout.palette_offset,
            count.min(layout.joints),
        )
    }

    /// `count` items from `offset` bytes into the last frame's ring slot, after waiting for
    /// the device.
    fn read_last_slot<T: bytemuck::Pod + bytemuck::Zeroable>(
        &mut self,
        what: &str,
        offset: usize,
        count: usize,
    ) -> Result<Vec<T>, GpuError> {
        self.wait_idle()?;
        let mut items = vec![T::zeroed(); count];
        read_buffer(
            &self.ctx,
            what,
            self.frames.ring.region().buffer(),
            (self.frames.ring.slot_offset(self.frames.last_slot) + offset) as u64,
            bytemuck::cast_slice_mut(&mut items),
        )?;
        Ok(items)
    }
}
