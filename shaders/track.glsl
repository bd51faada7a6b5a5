// The playback on the GPU: what it keeps per slot (Track) and per sample (Sample), made by
// build.rs from their one definition (src/motion/device_layouts.rs: DeviceTrack,
// DeviceSample).
#ifndef THRONG_TRACK_GLSL
#define THRONG_TRACK_GLSL

#include "motion_layouts.glsl"

#endif
