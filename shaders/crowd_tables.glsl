// The crowd's state on the GPU as its passes share it: per instance what stays (Walker) and
// what advances (Clock), per model and per clip what the rules read, made by build.rs from
// their one definition (src/motion/device_layouts.rs: DeviceWalker, DeviceClock, DeviceModel,
// DeviceClip), and what the passes do with them alike.
#ifndef THRONG_CROWD_TABLES_GLSL
#define THRONG_CROWD_TABLES_GLSL

#include "motion_layouts.glsl"

// SkinnedModelInstance::play on a clock: `clip` (of `duration` seconds) from its start (its
// end backwards), cross-fading from where the clock is over `fade` seconds (0: a cut).
void play_clip(inout Clock c, uint clip, float duration, float fade) {
    uint from = clip;
    if (fade > 0.0) {
        from = c.clips & 0xffffu;
        c.from_time = c.time;
        c.fade_elapsed = 0.0;
        c.fade_duration = fade;
    } else {
        c.from_time = 0.0;
        c.fade_elapsed = 0.0;
        c.fade_duration = 0.0;
    }
    c.time = c.speed >= 0.0 ? 0.0 : duration;
    c.clips = clip | (from << 16);
}

#endif
