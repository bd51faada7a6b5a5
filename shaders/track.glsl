// The playback on the GPU: what it keeps per slot and per sample. Keep in step with
// src/motion/playback/device_tables.rs (DeviceTrack, DeviceSample); tests/gpu_layouts.rs
// checks every shader reading them against those structs.
#ifndef THRONG_TRACK_GLSL
#define THRONG_TRACK_GLSL

// 64 bytes (std430).
struct Track {
    uint flags;     // TRACK_OCCUPIED, TRACK_ENTERED
    uint head;      // samples written; the newest is head - 1 (modulo the ring)
    float start;    // its first and last sample times (seconds after the epoch)
    float end;
    float scale;    // its height over its model's
    float phase;    // where in its clip it enters (a fraction of the clip)
    uint look;      // the look it enters wearing
    uint gait;      // 0 stand, 1 walk, 2 run
    float heading;  // radians, world: from +Z towards +X
    float speed;    // metres per second
    uint step;      // its colour ramp step (TRACK_NO_STEP before the first)
    uint pad;
    vec2 position;  // smoothed, file plane, metres from the origin
    vec2 pivot;     // its root's offset from its path (turning about the planted foot)
};

// 12 bytes (std430).
struct Sample {
    float time;         // seconds after the epoch
    float position[2];  // file plane, metres from the origin
};

#endif
