// The crowd's state on the GPU as its passes share it: per instance what stays (Walker) and
// what advances (Clock), per model and per clip what the rules read. Keep in step with
// src/motion/rules/on_device.rs (DeviceWalker, DeviceClock, DeviceModel, DeviceClip);
// tests/gpu_layouts.rs checks every shader reading them against those structs.
#ifndef THRONG_CROWD_TABLES_GLSL
#define THRONG_CROWD_TABLES_GLSL

// 64 bytes.
struct Walker {
    vec4 start[3];  // where the layout put it (rows of a column-vector affine matrix)
    uint turn;      // its place in the clip-change schedule's round
    uint slot;      // its record's index
    uint model;
    uint flags;     // CROWD_WALKER_CLAMP; its look from RECORD_LOOK_SHIFT up
};

// 32 bytes.
struct Clock {
    uint clips;          // clip playing (low 16), clip faded from (high 16)
    float time;
    float from_time;
    float fade_elapsed;
    float fade_duration; // 0: not fading
    float speed;
    float distance;      // walked along the route
    float stride;        // its height over its model's: its walking speed's scale
};

// 16 bytes.
struct Model {
    uint first_clip;
    uint clips;
    uint joints;
    uint pad;
};

// 48 bytes.
struct Clip {
    float duration;
    float walk_speed;
    uint baked_base;
    uint baked_frames;
    uint bound;
    float baked_error;  // model units
    uint times_base;    // its frames' times in FrameTimes
    uint pad;
    vec4 sphere;        // model space: centre, radius
};

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
