//! throng: crowds of skinned, animated characters.
//!
//! The modules follow the data flow of a frame (see `DESIGN.md` in the shared docs):
//! [`asset`] loads or generates a [`anim::SkinnedModel`]; [`anim`] samples clips and computes
//! palettes; [`crowd`] evaluates many instances in parallel into a [`crowd::PaletteRing`];
//! [`scene`] places a crowd on the ground and owns the camera and the light; [`gpu`] renders
//! it with Vulkan (frame graph, shadow, prepass, SSAO and forward passes).
//! `anim`, `asset` and `crowd` know nothing of Vulkan; `scene` only of its clip-space
//! convention.
//!
//! The examples show the calls in order: `examples/crowd_frame.rs` (palettes without a
//! renderer), `examples/walking_crowd.rs` (a laid-out crowd walking, drawn headless) and
//! `examples/steering_crowd.rs` (a program's own window and event loop, its own simulation
//! steering the characters, spawning and despawning them while it runs).

// `!(x > y)` is how this crate says "not greater, or NaN": input from files may hold NaN, and
// the negated form routes it to the safe branch. Clippy's suggested rewrite would hide that.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
#![warn(missing_docs)]

#[macro_use]
mod layouts;

pub mod anim;
pub mod asset;
pub mod crowd;
pub mod gpu;
pub mod motion;
pub mod scene;
pub mod text;
