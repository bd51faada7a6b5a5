// The numbers the crowd-state tables code their fields with (`on_device`), which the shaders
// compare against (shaders/crowd_state.comp, shaders/crowd_state_apply.comp). Each is written
// once, here: src/gpu/frame/shader_interface.rs hands them to the GLSL under the shaders' names
// (`CROWD_ROUTE_LANES`, ...) by naming these (`crate::motion::ROUTE_LANES`), and build.rs
// includes this file as its own `motion` module so that those paths resolve there too.
//
// Plain constants only: no `use`, no paths into the crate, no inner doc comments, since the
// build script compiles this file on its own (`include!`).

/// [`DeviceWalker::flags`](super::DeviceWalker::flags): the instance's playback clamps at the
/// clip's ends (else loops).
pub const WALKER_CLAMP: u32 = 1;

/// [`DeviceStep::route`](super::DeviceStep::route): nobody walks.
pub const ROUTE_IN_PLACE: u32 = 0;
/// [`DeviceStep::route`](super::DeviceStep::route): straight lanes along +Z (`route_a`: front,
/// `route_b`: depth).
pub const ROUTE_LANES: u32 = 1;
/// [`DeviceStep::route`](super::DeviceStep::route): rings about the origin (`route_a`: the
/// smallest radius walked).
pub const ROUTE_RINGS: u32 = 2;

/// [`DeviceCommand::kind`](super::DeviceCommand::kind): the instance was moved
/// (`walker.start` is where).
pub const COMMAND_MOVED: u32 = 1;
/// [`DeviceCommand::kind`](super::DeviceCommand::kind): the instance plays `clip`,
/// cross-fading over `fade`.
pub const COMMAND_PLAYED: u32 = 2;
/// [`DeviceCommand::kind`](super::DeviceCommand::kind): the instance's clock is `clock` (its
/// walked distance kept) and its playback `walker.flags`.
pub const COMMAND_REPLACED: u32 = 3;
/// [`DeviceCommand::kind`](super::DeviceCommand::kind): the instance wears the look in
/// `walker.flags`.
pub const COMMAND_RESTYLED: u32 = 4;
/// [`DeviceCommand::kind`](super::DeviceCommand::kind): a new instance at `instance`, whole
/// (`walker` and `clock`).
pub const COMMAND_SPAWNED: u32 = 5;
/// [`DeviceCommand::kind`](super::DeviceCommand::kind): `instance` was removed and the
/// instance at index `clip` (the last) takes its place, walker and clock.
pub const COMMAND_DESPAWNED: u32 = 6;
/// [`DeviceCommand::kind`](super::DeviceCommand::kind): the instance's record moves to
/// `walker.slot` (records stay dense after a removal).
pub const COMMAND_RESLOTTED: u32 = 7;
/// [`DeviceCommand::kind`](super::DeviceCommand::kind): the instance plays at the rate
/// `clock.speed`, from where it is.
pub const COMMAND_PACED: u32 = 8;

/// [`DeviceTrack::flags`](crate::motion::DeviceTrack::flags): the slot holds a pedestrian
/// (shown from its first sample to its last).
pub const TRACK_OCCUPIED: u32 = 1;
/// [`DeviceTrack::flags`](crate::motion::DeviceTrack::flags): the pedestrian has entered (its
/// gait, heading and clock are set).
pub const TRACK_ENTERED: u32 = 2;
/// [`DeviceTrackCommand::kind`](crate::motion::DeviceTrackCommand::kind): the slot takes the
/// pedestrian in `track` (its samples follow).
pub const TRACK_ASSIGN: u32 = 1;
/// [`DeviceTrackCommand::kind`](crate::motion::DeviceTrackCommand::kind): the slot is empty.
pub const TRACK_CLEAR: u32 = 2;
/// [`DeviceTrack::look`](crate::motion::DeviceTrack::look) and a gait's stance profile: none.
pub const TRACK_NONE: u32 = 0xffff_ffff;
/// A ramp step not taken yet ([`DeviceTrack::step`](crate::motion::DeviceTrack::step)).
pub const TRACK_NO_STEP: u32 = 255;
/// Steps of the colour ramp ([`STEPS`](crate::motion::STEPS)): a model's ramp looks, which
/// the tracks' table holds inline.
pub const RAMP_STEPS: u32 = 16;
/// The radius a pedestrian's neighbours are counted in for its density, millimetres
/// ([`DENSITY_RADIUS`](crate::motion::DENSITY_RADIUS) in metres).
pub const DENSITY_RADIUS_MM: u32 = 1000;
