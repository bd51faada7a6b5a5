//! Every way a crowd moves: by the built-in rules, or as somebody else's crowd (pedestrian
//! simulators, laboratory experiments) played back as animated characters.
//!
//! Built in, [`rules`]: the rules the `throng` program walks its crowds by ([`CrowdMotion`]):
//! clip changes on a steady schedule, walkers along lanes or rings ([`WalkPaths`]) at their
//! clips' pace, and the same rules packed into tables the GPU advances ([`DeviceMotion`]).
//!
//! From elsewhere, the trajectory playback:
//!
//! - [`trajectory`]: the readers of the field's trajectory files (JuPedSim SQLite, PeTrack /
//!   Jülich text, Vadere, Pathfinder, ETH/UCY, any CSV), with their walkable areas;
//! - [`TrackPath`]: one pedestrian's path through time, linear between samples, and the same
//!   path low-pass filtered by a centred moving average (the head's sway of tracked data);
//! - locomotion from motion: [`GaitClips`] and [`GaitSpeeds`] (standing, walking or running
//!   from the speed, the clip's rate from its stride so the feet stay planted), the heading
//!   along the smoothed velocity at a bounded turn rate ([`turn_towards`]);
//! - [`Locomotion`]: characters whose source says where each one is and how it moves (a
//!   file's paths, a program's own simulation) turned into a crowd that walks: spawned,
//!   placed, turned, re-clipped and paced through the crowd's API, on either path of the
//!   crowd's state;
//! - [`Playback`]: the crowd at a file time: pedestrians entering [`Locomotion`] at their first
//!   sample and leaving after their last, each one's path held
//!   only around the time shown and read from a [`TrackStore`](trajectory::TrackStore) (the
//!   file filed by chunk of time, spilled to a temporary file when large) as time goes on;
//! - [`ColorBy`]: pedestrians tinted by speed or local density on one colour ramp;
//! - [`FootExport`]: per pedestrian and frame, what was drawn (root, heading, clip, clip
//!   time, fade, scale, each foot's world position) as CSV, to check the motion outside.
//!
//! Depends on `anim`, `crowd` and `scene` (the layouts, the stride of a clip, the standing
//! basis of a model), which never names it; knows nothing of Vulkan.

mod coloring;
mod device_codes;
mod export;
mod from_file;
mod gait;
mod gpu_layouts;
mod heading;
mod identity;
mod locomotion;
mod pivot;
mod playback;
mod resident;
pub mod rules;
mod track_path;
pub mod trajectory;

pub use coloring::{
    ColorBy, DENSITY_RADIUS, DENSITY_TOP, DensityGrid, RAMP, SPEED_TOP, STEPS, ramp, ramp_looks,
    top_count,
};
pub use device_codes::{
    COMMAND_DESPAWNED, COMMAND_MOVED, COMMAND_PACED, COMMAND_PLAYED, COMMAND_REPLACED,
    COMMAND_RESLOTTED, COMMAND_RESTYLED, COMMAND_SPAWNED, DENSITY_RADIUS_MM, RAMP_STEPS,
    ROUTE_IN_PLACE, ROUTE_LANES, ROUTE_RINGS, TRACK_ASSIGN, TRACK_CLEAR, TRACK_ENTERED,
    TRACK_NO_STEP, TRACK_NONE, TRACK_OCCUPIED, WALKER_CLAMP,
};
pub use export::FootExport;
pub use from_file::walkable_areas;
pub use gait::{Gait, GaitClips, GaitError, GaitSpeeds, MAX_RATE, parse_clip_names};
pub use gpu_layouts::{
    DeviceClip, DeviceClock, DeviceCommand, DeviceGaits, DeviceModel, DeviceSample,
    DeviceSampleWrite, DeviceStep, DeviceTrack, DeviceTrackCommand, DeviceTrackStep, DeviceWalker,
    NearInstance,
};
pub use heading::{DEFAULT_TURN_RATE, heading_of, turn_towards, wrap};
pub use locomotion::{Arrival, Locomotion, MemberState, PlayModel, PlaybackSettings};
pub use playback::{
    DeviceTrackTables, Follower, Playback, PlaybackError, StepCounts, TracksOnDevice,
};
pub use rules::{
    CLIP_CHANGE_INTERVAL, CLIP_FADE, ClipChangeCounts, CrowdMotion, DeviceChanges, DeviceMotion,
    NotOnDevice, WalkPaths, catch_up,
};
pub use track_path::{MAX_DEPARTURE, MIN_VELOCITY_HALF_WINDOW, TrackPath};
