// The per-instance record the crowd writes into the ring slot (InstanceRecord, made by
// build.rs from its one definition, src/crowd/device_layouts.rs, with its members' meanings),
// and what the stages do with it.
#ifndef THRONG_RECORD_GLSL
#define THRONG_RECORD_GLSL

#include "crowd_layouts.glsl"

// The look an instance wears (an index into the crowd's looks, shaders/looks.glsl).
uint record_look(InstanceRecord r) {
    return r.model_flags >> RECORD_LOOK_SHIFT;
}

mat3x4 world_matrix(InstanceRecord r) {
    return mat3x4(r.world[0], r.world[1], r.world[2]);
}

vec3 transform_point(mat3x4 m, vec3 p) {
    return vec4(p, 1.0) * m;
}

// Directions use the linear part only. Normals too: palettes and instance transforms are
// rotations with uniform scale (and mirrors), for which this equals the inverse transpose up
// to a scale that normalization removes.
vec3 transform_direction(mat3x4 m, vec3 d) {
    return vec4(d, 0.0) * m;
}

#endif
