//! The structs of motion's tables on the GPU (the crowd's state: [`DeviceWalker`],
//! [`DeviceClock`], [`DeviceModel`], [`DeviceClip`], [`DeviceStep`], [`NearInstance`],
//! [`DeviceCommand`]; the playback's tracks: [`DeviceTrack`], [`DeviceSample`],
//! [`DeviceSampleWrite`], [`DeviceTrackCommand`], [`DeviceGaits`], [`DeviceTrackStep`]), made
//! by `gpu_layouts!` (`crate::layouts`) from their one definition in `device_layouts.rs`,
//! which `build.rs` reads too to write the GLSL the shaders include (`motion_layouts.glsl`):
//! nothing is copied. Their methods live
//! with the code that fills them (`rules/on_device.rs`, `playback/device_tables.rs`).

use bytemuck::{Pod, Zeroable};

use super::device_codes::RAMP_STEPS;
use crate::anim::Mat3x4;

include!("device_layouts.rs");

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes each struct's documentation states (and std430 gives its GLSL twin; the
    /// offsets are `tests/gpu_layouts.rs`'s, read from the compiled shaders).
    #[test]
    fn the_sizes_are_the_documented_ones() {
        assert_eq!(size_of::<DeviceWalker>(), 64);
        assert_eq!(size_of::<DeviceClock>(), 32);
        assert_eq!(size_of::<DeviceModel>(), 16);
        assert_eq!(size_of::<DeviceClip>(), 48);
        assert_eq!(size_of::<DeviceStep>(), 48);
        assert_eq!(size_of::<NearInstance>(), 64);
        assert_eq!(size_of::<DeviceCommand>(), 112);
        assert_eq!(size_of::<DeviceTrack>(), 64);
        assert_eq!(size_of::<DeviceSample>(), 12);
        assert_eq!(size_of::<DeviceSampleWrite>(), 24);
        assert_eq!(size_of::<DeviceTrackCommand>(), 80);
        assert_eq!(size_of::<DeviceGaits>(), 160);
        assert_eq!(size_of::<DeviceTrackStep>(), 96);
    }
}
