//! What follows from a pedestrian's id alone: its model, look, height and the moment of its
//! clip it starts at are drawn from a hash of it, so the same file plays the same way every
//! time, whatever order the pedestrians enter in.

/// A well-mixed hash of a pedestrian's id (its model, look, height and phase follow from it,
/// so the same file plays the same way every time).
pub(super) fn mix(id: u64, salt: u64) -> u64 {
    let mut z = id ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A number in [0, 1) from a hash.
pub(super) fn unit(h: u64) -> f32 {
    (h >> 40) as f32 / (1u64 << 24) as f32
}
