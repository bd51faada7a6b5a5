//! The scene: where a crowd stands, what looks at it and what lights it.
//!
//! - [`placement`]: the plain grid and golden-ratio phases ([`spawn_on_grid`],
//!   [`independent_time`]);
//! - [`CrowdLayout`]: a seeded crowd of one or several models, interleaved on a grid centred
//!   on the origin, with jittered positions and headings, varied clips, phases and speeds;
//! - [`model_basis`]: each format's space to the world (right-handed, +Y up; identity for
//!   every format read today), [`standing_basis`] (the basis with the model's rest pose
//!   stood on y = 0), [`mirrors`], [`footprint`]; [`front_face`], the winding to draw a model
//!   with, read from its triangles and normals (formats disagree even with themselves);
//! - [`Camera`] (world to **Vulkan** clip space: y down, depth 0..1) with [`Camera::framing`],
//!   and [`OrbitCamera`] for interactive use;
//! - [`Light`]: a [`DirectionalLight`] sun and a [`HemisphereAmbient`] term;
//! - [`stride_speed`]: how fast a clip played in place carries a character, from its planted
//!   feet; [`play_in_place`]: clips with root motion made to tread in place, and the speed
//!   their root travelled at ([`RootMotion`]); [`play_models_in_place`]: the same for every
//!   model of a crowd ([`ModelsInPlace`]), before it moves.
//!
//! How a crowd moves from frame to frame (the built-in rules, and trajectories played back
//! from files) is not here but in `motion`, which reads the layouts, strides and standing
//! bases above; so nothing here names `motion`.
//!
//! Depends on `anim` and `crowd` (never the reverse) and knows nothing of Vulkan beyond its
//! clip-space convention: it is math only.

mod basis;
mod camera;
mod in_place;
mod layout;
mod light;
pub mod placement;
mod prop_share;
mod rng;
mod root_motion;
mod shadow;
mod stance;
mod stride;
#[cfg(test)]
mod testing;
mod variety;
mod walkable;
mod winding;

pub use basis::{
    MIRROR_Z, bind_pose_bounds, footprint, mirrors, model_basis, placed_bounds, rest_pose_bounds,
    standing_basis, transform_bounds,
};
pub use camera::{Camera, DEFAULT_FOV_Y, OrbitCamera};
pub use in_place::{ModelsInPlace, play_models_in_place};
pub use layout::{CrowdLayout, MATCH_RATIO, ModelHeight, PlacedInstance, crowd_bounds};
pub use light::{DirectionalLight, HemisphereAmbient, Light};
pub use placement::{independent_time, spawn_on_grid};
pub use prop_share::leave_props_off;
pub use root_motion::{Carrier, RootMotion, in_place_clip, play_in_place, root_motion};
pub use shadow::{
    NEAR_CASCADE_GAIN, NEAR_CASCADE_HEIGHTS, NearCascade, light_view_proj, near_cascade,
    shadow_casting_box,
};
pub use stance::{StanceProfile, StanceTables};
pub use stride::{bind_positions, foot_joints, stride_speed};
pub use variety::{MaterialRole, Variety, material_role, model_looks};
pub use walkable::{WalkableArea, WallStyle, walkable_model};
pub use winding::{FrontFace, front_face};
