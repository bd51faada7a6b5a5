//! The crowd job system: many [`SkinnedModelInstance`](crate::anim::SkinnedModelInstance)s
//! evaluated in parallel with rayon, per-thread scratch, and palettes written straight into a
//! [`PaletteRing`] slot. Knows nothing of Vulkan: the renderer supplies GPU memory through
//! [`RegionAllocator`] and its fences through [`ReleaseWait`].

mod baked;
pub mod bench;
mod dispatch;
mod error;
mod exact_cap;
#[cfg(test)]
mod layering;
mod record;
mod region;
mod ring;
mod synthetic;
mod system;
#[cfg(test)]
mod test_models;
pub mod textbook;
pub mod visibility;

pub use baked::{BakeReport, BakeSettings, BakedEntry, BakedLibrary};
pub use error::{CrowdError, RingError};
pub use record::{InstanceRecord, RECORD_BAKED, RECORD_MODEL_MASK};
pub use region::{
    HostAllocator, HostRegion, MappedRegion, REGION_ALIGN, RegionAllocator, RingLimits,
};
pub use ring::{DEFAULT_SLOTS, NoConsumer, PaletteRing, ReleaseWait, Slot, SlotLayout};
pub use synthetic::{SyntheticShape, synthetic_model};
pub use system::{AnimationCounts, AnimationMode, Crowd, ModelId, Placement};
