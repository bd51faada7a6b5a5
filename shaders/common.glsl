// Layouts shared by the graphics passes, and four-influence linear blend skinning.
// Keep in step with src/crowd/record.rs (InstanceRecord), src/anim/matrix.rs (Mat3x4) and
// src/gpu/frame_data.rs (FrameData, DrawConstants); tests/gpu_layouts.rs checks the offsets.

#include "record.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Records {
    InstanceRecord records[];
};

// Exact palette matrices, three vec4 rows each (Mat3x4), instance after instance.
layout(std430, set = 0, binding = 1) readonly buffer Palettes {
    vec4 palette_rows[];
};

// Baked frames: every baked clip's palettes, frame after frame (src/crowd/baked.rs).
layout(std430, set = 0, binding = 8) readonly buffer Baked {
    vec4 baked_rows[];
};

// The instances a draw covers, written by the culling pass (shaders/cull.comp): each draw's
// firstInstance starts its view's and level's list, so gl_InstanceIndex indexes it.
layout(std430, set = 0, binding = 9) readonly buffer Visible {
    uint visible[];
};

#include "frame.glsl"

// Per draw (one model subset): its material.
layout(push_constant) uniform Draw {
    vec4 base_color;     // linear RGBA
    vec4 fresnel0;       // rgb: specular reflectance at normal incidence
    vec4 params;         // x: roughness, y: alpha clip (0/1), z: has normal map (0/1),
                         // w: +1, or -1 when the instance transform mirrors
} draw;

// The record of the instance this vertex belongs to.
InstanceRecord drawn_instance() {
    return records[visible[gl_InstanceIndex]];
}

// A 3x4 matrix whose "columns" are the rows of the affine transform: vec4(p, 1) * m = M p.
mat3x4 palette_matrix(uint index) {
    return mat3x4(palette_rows[3u * index], palette_rows[3u * index + 1u],
                  palette_rows[3u * index + 2u]);
}

mat3x4 baked_matrix(uint index) {
    return mat3x4(baked_rows[3u * index], baked_rows[3u * index + 1u],
                  baked_rows[3u * index + 2u]);
}

// A baked pose's matrix: the frame at `base` and the next one (a pose further on), blended
// element-wise (src/anim/bake.rs, BakedClip::sample, is the CPU statement). The next frame is
// only read when it weighs something: a one-frame clip has none.
mat3x4 baked_pose_matrix(uint base, uint joints, float weight, uint joint) {
    mat3x4 m = baked_matrix(base + joint);
    if (weight > 0.0) {
        m = m * (1.0 - weight) + baked_matrix(base + joints + joint) * weight;
    }
    return m;
}

// Joint `joint`'s palette matrix: the exact one the CPU wrote, or the baked frames' (blended
// with the faded-from clip's during a cross-fade).
mat3x4 joint_matrix(InstanceRecord r, uint joint) {
    if ((r.model_flags & RECORD_BAKED) == 0u) {
        return palette_matrix(r.palette_base + joint);
    }
    mat3x4 m = baked_pose_matrix(r.palette_base, r.joints, r.frame_weight, joint);
    if (r.fade > 0.0) {
        m = m * (1.0 - r.fade)
          + baked_pose_matrix(r.fade_base, r.joints, r.fade_frame_weight, joint) * r.fade;
    }
    return m;
}

// The blend of up to four palette matrices (weights sum to 1; unused slots weigh 0 and are
// skipped, so their joint index need not be valid).
mat3x4 skin_matrix(InstanceRecord r, uvec4 joints, vec4 weights) {
    mat3x4 m = joint_matrix(r, joints.x) * weights.x;
    if (weights.y > 0.0) m += joint_matrix(r, joints.y) * weights.y;
    if (weights.z > 0.0) m += joint_matrix(r, joints.z) * weights.z;
    if (weights.w > 0.0) m += joint_matrix(r, joints.w) * weights.w;
    return m;
}

// Where a skinned vertex lands in the world: the one statement of skinning every skinned pass
// uses, so shadows, depth and colour agree to the bit.
vec3 skinned_world_position(InstanceRecord r, mat3x4 skin, vec3 position) {
    return transform_point(world_matrix(r), transform_point(skin, position));
}

// The shadow map and the blurred ambient occlusion, read by the shading of every surface.
layout(set = 0, binding = 5) uniform sampler2DShadow shadow_map;
layout(set = 0, binding = 6) uniform sampler2D ambient_occlusion;
