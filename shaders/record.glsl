// The per-instance record the crowd writes into the ring slot. Keep in step with
// src/crowd/record.rs (InstanceRecord); tests/gpu_layouts.rs checks the offsets.
#ifndef THRONG_RECORD_GLSL
#define THRONG_RECORD_GLSL

// 80 bytes (std430): the world transform as three rows of a column-vector affine matrix,
// where the palette is, and what the culling pass tests.
struct InstanceRecord {
    vec4 world[3];
    uint palette_base;      // exact: first matrix in the slot's palettes; baked: first matrix
                            // of the frame before its time, in the baked table
    uint joints;            // matrices per pose (RECORD_JOINTS_MASK bits); above them
                            // (RECORD_PHASE_SHIFT) the clip's phase in 65535ths
    uint model_flags;       // model index (RECORD_MODEL_MASK bits) | RECORD_BAKED
    uint bounds;            // bound of the clip playing (low 16) and faded from (high 16)
    float frame_weight;     // baked: weight of the next frame
    uint fade_base;         // baked, fading: the faded-from clip's frame
    float fade_frame_weight;
    float fade;             // baked: weight of the faded-from pose (0 when not fading)
};

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
