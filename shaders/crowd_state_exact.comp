#version 460
// Points the records of the instances the CPU evaluated exact palettes for (the near set, with
// the crowd's state on the GPU) at those palettes, after shaders/crowd_state.comp wrote them
// reading baked frames. One invocation per exact instance.
#include "record.glsl"

layout(local_size_x = CROWD_STATE_GROUP) in;

layout(std430, set = 0, binding = 0) buffer Records {
    InstanceRecord records[];
};

// Per exact instance: its record's index and its first matrix in the slot's palettes.
layout(std430, set = 0, binding = 1) readonly buffer Exact {
    uvec2 exact[];
};

layout(push_constant) uniform Count {
    uint count;
} exact_count;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= exact_count.count) {
        return;
    }
    uvec2 e = exact[i];
    if (e.x >= records.length()) {
        return;
    }
    records[e.x].palette_base = e.y;
    records[e.x].model_flags &= ~RECORD_BAKED;
    records[e.x].frame_weight = 0.0;
    records[e.x].fade = 0.0;
}
