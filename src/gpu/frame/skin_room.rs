//! How much room the skin pass has unless asked otherwise, and at most on a device: one
//! storage buffer of skinned vertices per frame in flight ([`crate::gpu::frame::skinning`]
//! says what it holds). Apart from it so that the settings can name both without importing
//! the skinning, which reads the settings.

use ash::vk;

/// Megabytes per frame in flight unless asked otherwise: the most one dispatch skins
/// ([`SKIN_MAX_VEC4S`](crate::gpu::frame::shader_interface::SKIN_MAX_VEC4S), 256 MB less
/// 0.02%). The street of 100,000 built-in characters at 1920x1080 needs about 200
/// (docs/crowds-at-scale.md); a list that does not fit is skinned by the vertex shaders.
pub const DEFAULT_SKIN_MEMORY_MB: u32 = 256;

/// The megabytes of skinned vertices to keep when `asked` for, at most what the device named
/// `device` binds as one storage buffer (`limits`); `warn`: say so once when lowered (the
/// skin pass will run).
pub fn skin_memory_within(
    asked: u32,
    limits: &vk::PhysicalDeviceLimits,
    device: &str,
    warn: bool,
) -> u32 {
    let most = (limits.max_storage_buffer_range >> 20).max(1);
    if warn && asked > most {
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| {
            log::warn!(
                "{asked} MB of skinned vertices asked for; {device} binds at most {most} MB as \
                 one buffer"
            );
        });
    }
    asked.min(most)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::frame::shader_interface::SKIN_MAX_VEC4S;

    #[test]
    fn the_room_fits_one_storage_buffer_of_the_device() {
        let limits = vk::PhysicalDeviceLimits {
            max_storage_buffer_range: 1 << 27,
            ..Default::default()
        };
        assert_eq!(skin_memory_within(64, &limits, "test", false), 64);
        assert_eq!(skin_memory_within(4096, &limits, "test", false), 128);
        assert!(u64::from(DEFAULT_SKIN_MEMORY_MB) << 20 >= u64::from(SKIN_MAX_VEC4S) * 16);
    }
}
