use crate::gpu::frame::shader_interface as si;
use crate::motion as m;

/// The codes the shaders compare with are motion's own (`shader_interface` names them);
/// what is left to check is what the GLSL assumes without a name, and the tables' sizes.
#[test]
fn the_shaders_tables_are_the_motions() {
    assert_eq!(m::ROUTE_IN_PLACE, 0, "the shader walks no one for route 0");
    assert_eq!(size_of::<m::DeviceCommand>(), 112);
    assert_eq!(size_of::<m::DeviceWalker>(), 64);
    assert_eq!(size_of::<m::DeviceClock>(), 32);
    assert_eq!(size_of::<m::DeviceModel>(), 16);
    assert_eq!(size_of::<m::DeviceClip>(), 48);
    assert_eq!(size_of::<m::DeviceStep>(), 48);
    assert_eq!(size_of::<m::NearInstance>(), 64);
    // The list after the header starts where std430 puts NearInstance (16-byte aligned).
    assert_eq!(super::NEAR_HEADER % 16, 0);
}

/// `near_band` in the shader, stated again: the band whose start is at or below.
fn band_of(distance: f32) -> usize {
    let octaves = distance.max(1e-30).log2() + si::NEAR_BAND_FIRST_OCTAVE as f32;
    (octaves * si::NEAR_BANDS_PER_OCTAVE as f32)
        .floor()
        .clamp(0.0, si::NEAR_BANDS as f32 - 1.0) as usize
}

#[test]
fn each_band_starts_where_the_shader_puts_its_distances() {
    for band in 1..si::NEAR_BANDS as usize {
        let start = crate::gpu::features::crowd_state::state::near_band_start(band);
        assert_eq!(band_of(start * 1.001), band, "band {band} at {start}");
        assert_eq!(band_of(start * 0.999), band - 1, "below band {band}");
    }
    assert_eq!(band_of(0.0), 0);
    assert_eq!(band_of(f32::MAX), si::NEAR_BANDS as usize - 1);
}

#[test]
fn the_nearest_bands_that_fit_are_listed() {
    let bands = si::NEAR_BANDS as usize;
    let mut instances = vec![0u32; bands];
    let mut matrices = vec![0u32; bands];
    for (band, n) in [(40, 3u32), (41, 4), (44, 5)] {
        instances[band] = n;
        matrices[band] = n * 10;
    }
    // Everything fits: no limit.
    assert_eq!(super::near_within(&instances, &matrices, 12, 120), f32::MAX);
    // Seven instances fit, not twelve: up to band 44's start.
    assert_eq!(
        crate::gpu::features::crowd_state::state::near_within(&instances, &matrices, 8, 1000),
        crate::gpu::features::crowd_state::state::near_band_start(44)
    );
    // The palettes' room binds first: 30 matrices are band 40 alone.
    assert_eq!(
        crate::gpu::features::crowd_state::state::near_within(&instances, &matrices, 100, 30),
        crate::gpu::features::crowd_state::state::near_band_start(41)
    );
}
