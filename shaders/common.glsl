// Layouts shared by the graphics passes, and four-influence linear blend skinning.
// Keep in step with src/crowd/record.rs (InstanceRecord), src/anim/matrix.rs (Mat3x4) and
// src/gpu/frame_data.rs (FrameData, DrawConstants); tests/gpu_layouts.rs checks the offsets.

// One per instance, 64 bytes (std430): the world transform as three rows of a column-vector
// affine matrix, then where the instance's palette starts.
struct InstanceRecord {
    vec4 world[3];
    uint palette_base;
    uint model;
    uint joints;
    uint reserved;
};

layout(std430, set = 0, binding = 0) readonly buffer Records {
    InstanceRecord records[];
};

// Palette matrices, three vec4 rows each (Mat3x4), instance after instance.
layout(std430, set = 0, binding = 1) readonly buffer Palettes {
    vec4 palette_rows[];
};

#include "frame.glsl"

// Per draw (one model subset): its material.
layout(push_constant) uniform Draw {
    vec4 base_color;     // linear RGBA
    vec4 fresnel0;       // rgb: specular reflectance at normal incidence
    vec4 params;         // x: roughness, y: alpha clip (0/1), z: has normal map (0/1),
                         // w: +1, or -1 when the instance transform mirrors
} draw;

// A 3x4 matrix whose "columns" are the rows of the affine transform: vec4(p, 1) * m = M p.
mat3x4 palette_matrix(uint index) {
    return mat3x4(palette_rows[3u * index], palette_rows[3u * index + 1u],
                  palette_rows[3u * index + 2u]);
}

mat3x4 world_matrix(InstanceRecord r) {
    return mat3x4(r.world[0], r.world[1], r.world[2]);
}

// The blend of up to four palette matrices (weights sum to 1; unused slots weigh 0 and are
// skipped, so their joint index need not be valid).
mat3x4 skin_matrix(InstanceRecord r, uvec4 joints, vec4 weights) {
    mat3x4 m = palette_matrix(r.palette_base + joints.x) * weights.x;
    if (weights.y > 0.0) m += palette_matrix(r.palette_base + joints.y) * weights.y;
    if (weights.z > 0.0) m += palette_matrix(r.palette_base + joints.z) * weights.z;
    if (weights.w > 0.0) m += palette_matrix(r.palette_base + joints.w) * weights.w;
    return m;
}

// The shadow map and the blurred ambient occlusion, read by the shading of every surface.
layout(set = 0, binding = 5) uniform sampler2DShadow shadow_map;
layout(set = 0, binding = 6) uniform sampler2D ambient_occlusion;

vec3 transform_point(mat3x4 m, vec3 p) {
    return vec4(p, 1.0) * m;
}

// Directions use the linear part only. Normals too: palettes and instance transforms are
// rotations with uniform scale (and mirrors), for which this equals the inverse transpose up
// to a scale that normalization removes.
vec3 transform_direction(mat3x4 m, vec3 d) {
    return vec4(d, 0.0) * m;
}
