//! The crowd job system: many [`SkinnedModelInstance`](crate::anim::SkinnedModelInstance)s
//! evaluated in parallel with rayon, per-thread scratch, and palettes written straight into a
//! [`PaletteRing`] slot. Knows nothing of Vulkan: the renderer supplies GPU memory through
//! [`RegionAllocator`] and its fences through [`ReleaseWait`].

mod advance;
mod baked;
pub mod bench;
mod detached;
mod dispatch;
mod error;
mod evaluate;
mod exact_cap;
mod gpu_codes;
mod gpu_layouts;
mod looks;
mod members;
mod model_bounds;
mod palette_choice;
mod reach;
mod record;
mod region;
mod ring;
mod slot_order;
mod synthetic;
mod system;
#[cfg(test)]
mod test_models;
pub mod textbook;
pub mod visibility;
mod workers;

pub use baked::{BakeReport, BakeSettings, BakedEntry, BakedLibrary};
pub use error::{CrowdError, RingError};
pub use gpu_codes::LOD_LEVELS;
pub use looks::{Look, LookId, MAX_LOOK_TINTS};
pub use members::ModelId;
pub use palette_choice::{AnimationCounts, AnimationMode};
pub use record::{
    InstanceRecord, MAX_LOOKS, RECORD_BAKED, RECORD_JOINTS_MASK, RECORD_LOOK_MASK,
    RECORD_LOOK_SHIFT, RECORD_MODEL_MASK, RECORD_PHASE_SHIFT,
};
pub use region::{
    HostAllocator, HostRegion, MappedRegion, REGION_ALIGN, RegionAllocator, RingLimits,
};
pub use ring::{DEFAULT_SLOTS, NoConsumer, PaletteRing, ReleaseWait, Slot, SlotLayout};
pub use slot_order::Placement;
pub use synthetic::{SyntheticShape, synthetic_model};
pub use system::{Crowd, InstanceChange};
