//! Animated impostors: far characters drawn as camera-facing cards showing pictures of the
//! model baked into an atlas at load by the renderer itself ([`bake`]): from rings of
//! directions around and above the character, at frames through each clip ([`layout`]), each
//! picture holding what lighting needs (colour and coverage, normal, depth), so a card is
//! lit, shadowed and occluded like a mesh. Its passes draw the cards as quads ([`cards`]) or
//! rasterize them in compute ([`card_compute`]).

pub mod atlases;
pub mod bake;
pub mod card_compute;
pub mod cards;
pub mod layout;
pub mod readback;
