//! Animated impostors: far characters drawn as camera-facing cards showing pictures of the
//! model baked into an atlas at load by the renderer itself ([`bake`]): from rings of
//! directions around and above the character, at frames through each clip ([`layout`]), each
//! picture holding what lighting needs (colour and coverage, normal, depth), so a card is
//! lit, shadowed and occluded like a mesh.

pub mod atlases;
pub mod bake;
pub mod layout;
pub mod readback;
