// The layouts of motion's tables on the GPU (the crowd's state and the playback's tracks), each
// written once, here, as Rust and GLSL both read it: `gpu_layouts!` in src/motion/gpu_layouts.rs
// makes each entry a `#[repr(C)]` Rust struct, and build.rs makes it the GLSL struct named
// after `=>` (and a `NAME_FIELDS` macro of its members, for push-constant blocks) in the
// generated include `motion_layouts.glsl` the shaders read. A member's GLSL type follows from
// its Rust type (`u32` uint, `f32` float, `[f32; 2]` vec2, `[f32; 4]` vec4, `Mat3x4` three
// vec4 rows, another entry its GLSL name, other arrays arrays of their element) unless
// spelled out after `=`. An entry comes after the entries it holds. tests/gpu_layouts.rs
// checks the compiled shaders against the Rust structs.
//
// Plain tokens only: no `use`, no inner doc comments, since build.rs includes this file too.

gpu_layouts! {
    /// Per instance, what stays while the crowd moves (64 bytes, std430).
    DeviceWalker => Walker {
        /// Where the layout put it (a walker's route starts there).
        start: Mat3x4,
        /// Its place in the clip-change schedule's round ([`DeviceStep::turn`]).
        turn: u32,
        /// Its record's index in the ring slot (slot order: grouped by model, spawn order within).
        slot: u32,
        /// Its model's index.
        model: u32,
        /// [`WALKER_CLAMP`](crate::motion::WALKER_CLAMP), and its look from
        /// [`RECORD_LOOK_SHIFT`](crate::crowd::RECORD_LOOK_SHIFT) up (where the record keeps it).
        flags: u32,
    }

    /// Per instance, what the GPU advances every frame (32 bytes, std430): a
    /// [`SkinnedModelInstance`](crate::anim::SkinnedModelInstance)'s clock without its queue, and
    /// how far it has walked.
    DeviceClock => Clock {
        /// The clip playing (low 16 bits) and the clip faded from (high 16; the same when not
        /// fading).
        clips: u32,
        /// Seconds into the clip playing.
        time: f32,
        /// Seconds into the clip faded from.
        from_time: f32,
        /// Seconds of the fade gone.
        fade_elapsed: f32,
        /// The fade's length, seconds; 0 when not fading.
        fade_duration: f32,
        /// Playback rate.
        speed: f32,
        /// How far along its route it has walked, world units.
        distance: f32,
        /// Its height as a fraction of its model's: the scale of its walking speed (a taller
        /// character strides further).
        stride: f32,
    }

    /// Per model (16 bytes): where its clips are in the clip table, and its palette's length.
    DeviceModel => Model {
        /// Its first clip's index in the clip table.
        first_clip: u32,
        /// Its clips.
        clips: u32,
        /// Palette matrices per pose.
        joints: u32,
        /// Unused.
        pad: u32,
    }

    /// Per model clip (48 bytes): what the rules, the record and the choice of exact palettes read
    /// of it.
    DeviceClip => Clip {
        /// Seconds.
        duration: f32,
        /// How fast it carries a walker forward, world units per second at playback rate 1 (0: it
        /// does not walk).
        walk_speed: f32,
        /// Its baked frames' first matrix in the baked table.
        baked_base: u32,
        /// Its baked frames (at least 2).
        baked_frames: u32,
        /// Its index among the model's clip bounds ([`InstanceRecord::bounds`]).
        ///
        /// [`InstanceRecord::bounds`]: crate::crowd::InstanceRecord::bounds
        bound: u32,
        /// How far, in model units, its baked frames may put a vertex from where exact palettes
        /// would ([`BakedEntry::error`](crate::crowd::BakedEntry::error)).
        baked_error: f32,
        /// Its baked frames' times' first index in
        /// [`DeviceMotion::frame_times`](crate::motion::DeviceMotion::frame_times).
        times_base: u32,
        /// Unused.
        pad: u32,
        /// The sphere around the mesh over the whole clip, model space (xyz: centre, w: radius).
        sphere: [f32; 4],
    }

    /// One frame's step (48 bytes, the crowd-state pass's push constants).
    DeviceStep => CrowdStep {
        /// Seconds.
        dt: f32,
        /// Instances.
        count: u32,
        /// The frame's first turn, modulo the crowd's size: instance `i` changes clip when
        /// `(walker.turn - turn) mod count < changes`.
        turn: u32,
        /// Turns this frame (at most the crowd's size: more would give someone two).
        changes: u32,
        /// A clip change's cross-fade, seconds.
        fade: f32,
        /// [`ROUTE_IN_PLACE`](crate::motion::ROUTE_IN_PLACE),
        /// [`ROUTE_LANES`](crate::motion::ROUTE_LANES) or
        /// [`ROUTE_RINGS`](crate::motion::ROUTE_RINGS).
        route: u32,
        /// Lanes: the front (world z). Rings: the smallest radius walked.
        route_a: f32,
        /// Lanes: the depth.
        route_b: f32,
        /// The most instances the pass lists as needing exact palettes (0: none is listed, every
        /// instance stays baked).
        near_capacity: u32,
        /// Instances needing exact palettes are listed only nearer than this (world units, from the
        /// eye to their sphere): the CPU sets it from an earlier frame's distances so that the
        /// nearest fill the list and the palettes' room, never whichever came first.
        near_within: f32,
        /// Unused.
        pad: [u32; 2],
    }

    /// An instance the crowd-state pass found near enough to need exact palettes (64 bytes,
    /// std430), with what the CPU needs to evaluate them: its clock after the frame that listed it,
    /// which [`catch_up`](crate::motion::catch_up) brings to a later frame.
    NearInstance => NearInstance {
        /// Its spawn index.
        instance: u32,
        /// Its record's index.
        slot: u32,
        /// Its model.
        model: u32,
        /// Its place in the schedule's round.
        turn: u32,
        /// [`WALKER_CLAMP`](crate::motion::WALKER_CLAMP).
        flags: u32,
        /// Unused.
        pad: [u32; 3],
        /// Its clock after the frame that listed it.
        clock: DeviceClock,
    }

    /// A change the application made through the crowd's API
    /// ([`InstanceChange`](crate::crowd::InstanceChange)), for the GPU's copy of the state to apply
    /// before it advances the frame (112 bytes, std430).
    DeviceCommand => CrowdCommand {
        /// [`COMMAND_MOVED`](crate::motion::COMMAND_MOVED),
        /// [`COMMAND_PLAYED`](crate::motion::COMMAND_PLAYED),
        /// [`COMMAND_REPLACED`](crate::motion::COMMAND_REPLACED),
        /// [`COMMAND_RESTYLED`](crate::motion::COMMAND_RESTYLED),
        /// [`COMMAND_PACED`](crate::motion::COMMAND_PACED),
        /// [`COMMAND_SPAWNED`](crate::motion::COMMAND_SPAWNED),
        /// [`COMMAND_DESPAWNED`](crate::motion::COMMAND_DESPAWNED) or
        /// [`COMMAND_RESLOTTED`](crate::motion::COMMAND_RESLOTTED) (made by
        /// [`DeviceChanges`](super::DeviceChanges)).
        kind: u32,
        /// The instance.
        instance: u32,
        /// Played: the clip. Despawned: the index whose instance takes this one's place.
        clip: u32,
        /// Played: the cross-fade, seconds.
        fade: f32,
        /// Moved: `start`; replaced and restyled: `flags`; spawned: all of it; reslotted: `slot`.
        walker: DeviceWalker,
        /// Replaced and spawned: the clock; paced: its `speed`.
        clock: DeviceClock,
    }

    /// Per slot, what the GPU keeps of its pedestrian (64 bytes, std430).
    DeviceTrack => Track {
        /// [`TRACK_OCCUPIED`](crate::motion::TRACK_OCCUPIED) and
        /// [`TRACK_ENTERED`](crate::motion::TRACK_ENTERED).
        flags: u32,
        /// Samples written to its ring so far (the newest is `head - 1`, modulo the ring).
        head: u32,
        /// Its first and last sample times (seconds after the step's epoch).
        start: f32,
        /// See `start`.
        end: f32,
        /// Its height over its model's.
        scale: f32,
        /// Where in its clip it enters, a fraction of the clip.
        phase: f32,
        /// The look it enters wearing.
        look: u32,
        /// Its gait ([`Gait::index`](crate::motion::Gait::index)).
        gait: u32,
        /// Its heading, radians (world: from +Z towards +X).
        heading: f32,
        /// Its speed, metres per second.
        speed: f32,
        /// Its ramp step ([`TRACK_NO_STEP`](crate::motion::TRACK_NO_STEP) before the first).
        step: u32,
        /// Unused.
        pad: u32,
        /// Its smoothed position (file plane, metres from the playback's origin).
        position: [f32; 2],
        /// How far its root stands from its path (turning about the planted foot), metres.
        pivot: [f32; 2],
    }

    /// One sample of a ring (12 bytes, std430): time (seconds after the epoch) and position (metres
    /// from the origin).
    DeviceSample => Sample {
        /// Seconds after the step's epoch.
        time: f32,
        /// File plane, metres from the playback's origin.
        position: [f32; 2] = "float position[2]",
    }

    /// A sample for a slot's ring (24 bytes, std430).
    DeviceSampleWrite => SampleWrite {
        /// The slot.
        slot: u32,
        /// The sample's index among the slot's pedestrian's (its ring place is this modulo the
        /// ring).
        index: u32,
        /// The sample.
        value: DeviceSample,
        /// Unused.
        pad: u32,
    }

    /// A change of a slot's pedestrian (80 bytes, std430), applied in order before the frame's
    /// samples.
    DeviceTrackCommand => TrackCommand {
        /// [`TRACK_ASSIGN`](crate::motion::TRACK_ASSIGN) or
        /// [`TRACK_CLEAR`](crate::motion::TRACK_CLEAR).
        kind: u32,
        /// The slot.
        slot: u32,
        /// Unused.
        pad: [u32; 2],
        /// Assigned: the slot's new state.
        track: DeviceTrack,
    }

    /// Per crowd model, what the tracks' rules read of it (160 bytes, std430).
    DeviceGaits => Gaits {
        /// The model stood on the ground facing +Z.
        standing: Mat3x4,
        /// Per gait, its clip (index in the model).
        clips: [u32; 3],
        /// 1 when the model has a clip to run with.
        can_run: u32,
        /// Per gait, the clip's stride speed (model units per second at rate 1).
        strides: [f32; 3],
        /// 1 when standing is the walk itself, frozen.
        frozen_stand: u32,
        /// Per gait, its stance profile's first float in the stance table
        /// ([`TRACK_NONE`](crate::motion::TRACK_NONE): none).
        stances: [u32; 3],
        /// Looks in `ramp`.
        ramp_len: u32,
        /// Its look for each step of the colour ramp.
        ramp: [u32; RAMP_STEPS as usize] = "uint ramp[TRACK_RAMP_STEPS]",
    }

    /// One frame of the tracks (96 bytes, the step pass's push constants).
    DeviceTrackStep => TrackStep {
        /// The file time shown, seconds after the epoch.
        time: f32,
        /// Seconds since the last step (0 after a seek).
        dt: f32,
        /// Slots.
        count: u32,
        /// The crowd index of the first slot.
        base: u32,
        /// The smoothing window, seconds.
        window: f32,
        /// The fastest turn, radians per second.
        turn_rate: f32,
        /// A gait change's cross-fade, seconds.
        fade: f32,
        /// Samples per slot's ring.
        ring: u32,
        /// [`GaitSpeeds`](crate::motion::GaitSpeeds), in its order.
        walk_above: f32,
        /// See `walk_above`.
        stand_below: f32,
        /// See `walk_above`.
        run_above: f32,
        /// See `walk_above`.
        walk_below: f32,
        /// Colouring: the ramp's top, by speed or by density (0: no colouring).
        color_top: f32,
        /// Commands this frame (the apply pass's count).
        commands: u32,
        /// Sample writes this frame.
        writes: u32,
        /// Colouring by density: the buckets of the hash of cells the neighbours are counted
        /// in, a power of two (0: not by density; the step pass then colours by speed).
        density_buckets: u32,
        /// The rules' constants, written once on the Rust side: the window a pedestrian entering
        /// looks ahead over (seconds), [`MIN_VELOCITY_HALF_WINDOW`], [`MAX_DEPARTURE`], the
        /// farthest and the fade of turning about the planted foot, and [`MAX_RATE`].
        ///
        /// [`MIN_VELOCITY_HALF_WINDOW`]: crate::motion::MIN_VELOCITY_HALF_WINDOW
        /// [`MAX_DEPARTURE`]: crate::motion::MAX_DEPARTURE
        /// [`MAX_RATE`]: crate::motion::MAX_RATE
        entry_window: f32,
        /// See `entry_window`.
        min_velocity_half_window: f32,
        /// See `entry_window`.
        max_departure: f32,
        /// See `entry_window`.
        max_pivot: f32,
        /// See `entry_window`.
        pivot_fade: f32,
        /// See `entry_window`.
        max_rate: f32,
        /// Colouring by density: the count at which every count wears the ramp's last step
        /// ([`top_count`](crate::motion::top_count)), where counting stops (0 otherwise).
        density_most: u32,
        /// Unused.
        pad2: u32,
    }
}
