#version 460
// Colouring by density, after shaders/track_step.comp has placed everyone: each pedestrian
// present (one invocation per slot) is listed in the bucket of its cell, in a hash the frame
// emptied first; shaders/track_density.comp then walks the lists. The order within a list
// depends on the atomics' order, which no count does.
#include "track.glsl"
#include "track_density.glsl"

layout(local_size_x = TRACK_GROUP) in;

layout(std430, set = 0, binding = 0) readonly buffer Tracks {
    Track tracks[];
};

layout(std430, set = 0, binding = 1) buffer Heads {
    uint heads[];
};

layout(std430, set = 0, binding = 2) writeonly buffer Next {
    uint next[];
};

layout(push_constant) uniform Step {
    TRACK_STEP_FIELDS
} step;

void main() {
    uint s = gl_GlobalInvocationID.x;
    if (s >= step.count || (tracks[s].flags & TRACK_ENTERED) == 0u) {
        return;
    }
    uint b = density_bucket(density_cell(tracks[s].position), step.density_buckets);
    next[s] = atomicExchange(heads[b], s);
}
