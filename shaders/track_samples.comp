#version 460
// The playback on the GPU, after the slots' changes and before its step: the samples the
// host read this frame, each into its slot's ring (its index modulo the ring); the slot's
// head becomes the count written. The structs are
// src/motion/device_layouts.rs's.
#include "track.glsl"

layout(local_size_x = TRACK_GROUP) in;

layout(std430, set = 0, binding = 0) readonly buffer Writes {
    SampleWrite writes[];
};

layout(std430, set = 0, binding = 1) buffer Tracks {
    Track tracks[];
};

layout(std430, set = 0, binding = 2) writeonly buffer Samples {
    Sample samples[];
};

layout(push_constant) uniform Count {
    uint count;
    uint ring;
} write_count;

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= write_count.count) {
        return;
    }
    SampleWrite w = writes[k];
    samples[w.slot * write_count.ring + w.index % write_count.ring] = w.value;
    atomicMax(tracks[w.slot].head, w.index + 1u);
}
