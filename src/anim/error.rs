//! Errors raised when a skeleton, clip or model breaks the invariants the animation core relies
//! on. Loaders wrap them with the file, section and record they came from.

use thiserror::Error;

/// What is wrong with the data handed to the animation core.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum AnimError {
    /// A skeleton needs at least one joint (static models get one implicit joint).
    #[error("the skeleton has no joints")]
    NoJoints,
    /// More joints than vertex joint indices (`u16`) can address.
    #[error("{count} joints is more than the {max} supported")]
    TooManyJoints {
        /// Joints given.
        count: usize,
        /// The most supported.
        max: usize,
    },
    /// A parent index that does not name a joint.
    #[error("joint {joint} ({name}) has parent {parent}, but there are only {count} joints")]
    ParentOutOfRange {
        /// Index of the joint.
        joint: usize,
        /// Name of the joint.
        name: String,
        /// The parent index given.
        parent: usize,
        /// Joints in the skeleton.
        count: usize,
    },
    /// A parent that does not come before its child (the array must be parent-before-child).
    #[error("joint {joint} ({name}) has parent {parent}, which does not come before it")]
    ParentOrder {
        /// Index of the joint.
        joint: usize,
        /// Name of the joint.
        name: String,
        /// The parent index given.
        parent: usize,
    },
    /// The parent links contain a loop, so no parent-before-child order exists.
    #[error("joint {joint} ({name}) is its own ancestor")]
    ParentCycle {
        /// Index of the joint.
        joint: usize,
        /// Name of the joint.
        name: String,
    },
    /// Offsets must come one per joint.
    #[error("{offsets} offset matrices for {joints} joints")]
    OffsetCount {
        /// Offset matrices given.
        offsets: usize,
        /// Joints in the skeleton.
        joints: usize,
    },
    /// A bind pose or offset with NaN or infinity.
    #[error("joint {joint} ({name}): {what} is not finite")]
    NonFinite {
        /// Index of the joint.
        joint: usize,
        /// Name of the joint.
        name: String,
        /// Which value (bind pose or offset matrix).
        what: &'static str,
    },
    /// The bind pose cannot be inverted to derive an offset matrix.
    #[error("joint {joint} ({name}): the bind pose is singular, so no offset can be derived")]
    SingularBind {
        /// Index of the joint.
        joint: usize,
        /// Name of the joint.
        name: String,
    },
    /// A clip must have one track entry per joint.
    #[error("clip '{clip}': {tracks} tracks for {joints} joints")]
    TrackCount {
        /// Name of the clip.
        clip: String,
        /// Tracks given.
        tracks: usize,
        /// Joints in the skeleton.
        joints: usize,
    },
    /// A channel whose keys are unusable (see `message`).
    #[error("clip '{clip}': joint {joint} {channel}: {message}")]
    Channel {
        /// Name of the clip.
        clip: String,
        /// Index of the joint.
        joint: usize,
        /// `translation`, `rotation` or `scale`.
        channel: &'static str,
        /// What is wrong with the keys.
        message: String,
    },
    /// A ticks-per-second rate that is zero, negative or not finite.
    #[error("clip '{clip}': ticks per second must be positive and finite, got {rate}")]
    TickRate {
        /// Name of the clip.
        clip: String,
        /// The rate given.
        rate: f64,
    },
    /// Finite keys that compound, through the hierarchy and the offset, into palettes or
    /// skinned positions too large to stay finite (see `anim::bounds`).
    #[error(
        "joint {joint} ({name}): its scale and translation keys, compounded through its parents \
         and its offset, can reach {reach:.1e}, more than the {limit:.0e} that keeps palettes \
         finite"
    )]
    Overflow {
        /// Index of the joint (skeleton order).
        joint: usize,
        /// Name of the joint.
        name: String,
        /// The bound reached (may be infinite).
        reach: f64,
        /// The largest magnitude allowed.
        limit: f64,
    },
    /// A mesh that references joints, vertices or materials that do not exist.
    #[error("mesh: {0}")]
    Mesh(String),
    /// A clip looked up by a name that the model does not have.
    #[error("no clip named '{0}'")]
    UnknownClip(String),
    /// A clip or joint looked up by a name that several of them share (SDKMESH frames and
    /// glTF nodes may repeat names); the caller must use an index instead.
    #[error("{count} {what}s are named '{name}'; the name is ambiguous, use an index")]
    AmbiguousName {
        /// `clip` or `joint`.
        what: &'static str,
        /// The name looked up.
        name: String,
        /// How many share it.
        count: usize,
    },
    /// A clip looked up by an index past the end.
    #[error("clip index {index} is out of range (the model has {count} clips)")]
    ClipIndex {
        /// The index asked for.
        index: usize,
        /// Clips in the model.
        count: usize,
    },
    /// A sampling or baking rate that is not a positive, finite number per second.
    #[error("the rate {rate} is not a positive, finite number of samples per second")]
    SampleRate {
        /// The rate given.
        rate: f32,
    },
    /// Sampling a clip at a rate would take more samples (or a baked table more palettes)
    /// than the animation core allows.
    #[error(
        "clip '{clip}': {duration} s at {rate} per second is {samples} samples, more than the \
         {max} allowed"
    )]
    TooManySamples {
        /// Name of the clip.
        clip: String,
        /// Its duration, seconds.
        duration: f32,
        /// The rate asked for.
        rate: f32,
        /// The samples that rate needs.
        samples: u64,
        /// The most allowed.
        max: u64,
    },
    /// A baked clip measured against a clip it was not baked from.
    #[error(
        "clip '{clip}' lasts {duration} s over {joints} joints, but the baked table lasts \
         {baked_duration} s over {baked_joints} joints"
    )]
    BakedMismatch {
        /// Name of the clip.
        clip: String,
        /// The clip's duration, seconds.
        duration: f32,
        /// The model's joints.
        joints: usize,
        /// The baked table's duration, seconds.
        baked_duration: f32,
        /// The baked table's joints per frame.
        baked_joints: usize,
    },
}

impl AnimError {
    /// The joint (skeleton index) the error is about, when it is about one: loaders use it to
    /// point at the joint's record in the file.
    #[must_use]
    pub fn joint(&self) -> Option<usize> {
        match self {
            Self::ParentOutOfRange { joint, .. }
            | Self::ParentOrder { joint, .. }
            | Self::ParentCycle { joint, .. }
            | Self::NonFinite { joint, .. }
            | Self::SingularBind { joint, .. }
            | Self::Channel { joint, .. }
            | Self::Overflow { joint, .. } => Some(*joint),
            _ => None,
        }
    }
}
