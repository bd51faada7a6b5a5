// Four-influence linear blend skinning for the vertex stages of the skinned passes: the
// instance a vertex belongs to (from the culling pass's lists), its palette (exact, from the
// ring slot, or baked frames), and where the vertex lands. No samplers: the shadow pass
// includes only this and the frame uniforms.
// The record is src/crowd/device_layouts.rs's; a palette matrix is three vec4 rows, as
// src/anim/matrix.rs lays out Mat3x4 (tests/gpu_layouts.rs checks the stride).
#ifndef THRONG_SKINNING_GLSL
#define THRONG_SKINNING_GLSL

#include "record.glsl"

layout(std430, set = 0, binding = BINDING_RECORDS) readonly buffer Records {
    InstanceRecord records[];
};

// Exact palette matrices, three vec4 rows each (Mat3x4), instance after instance.
layout(std430, set = 0, binding = BINDING_PALETTES) readonly buffer Palettes {
    vec4 palette_rows[];
};

// Baked frames: every baked clip's palettes, frame after frame (src/crowd/baked.rs).
layout(std430, set = 0, binding = BINDING_BAKED) readonly buffer Baked {
    vec4 baked_rows[];
};

// The instances a draw covers, written by the culling pass (shaders/cull.comp): each draw's
// firstInstance starts its view's and level's list, so gl_InstanceIndex indexes it.
layout(std430, set = 0, binding = BINDING_VISIBLE) readonly buffer Visible {
    uint visible[];
};

// The model's levels as the skin pass sees them (src/gpu/frame/model_buffers.rs,
// SkinLevels): per level the vertices it uses, where its remap and its vertex list start.
layout(std430, set = 0, binding = BINDING_SKIN_LEVELS) readonly buffer SkinLevels {
    uint skin_levels[];
};

// Vertices skinned per instance drawn with `level`.
uint level_vertex_count(uint level) {
    return skin_levels[level * 4u];
}

#ifndef SKIN_PASS
// The record of the instance this vertex belongs to.
InstanceRecord drawn_instance() {
    return records[visible[gl_InstanceIndex] & VISIBLE_RECORD_MASK];
}

// How much of it its mesh draws, 0 to 1 (1 but while it crosses the impostor threshold).
float drawn_share() {
    return float(visible[gl_InstanceIndex] >> VISIBLE_SHARE_SHIFT) / 255.0;
}
#endif

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
    uint joints = r.joints & RECORD_JOINTS_MASK;
    mat3x4 m = baked_pose_matrix(r.palette_base, joints, r.frame_weight, joint);
    if (r.fade > 0.0) {
        m = m * (1.0 - r.fade)
          + baked_pose_matrix(r.fade_base, joints, r.fade_frame_weight, joint) * r.fade;
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

// A skinned direction (normal or tangent) in the world.
vec3 skinned_world_direction(InstanceRecord r, mat3x4 skin, vec3 direction) {
    return transform_direction(world_matrix(r), transform_direction(skin, direction));
}

#if defined(SKIN_ONCE) || defined(SKIN_PASS)
#include "skin_table.glsl"
#endif

#ifdef SKIN_ONCE
// The vertices the skin pass left (shaders/skin.comp): per vertex SKIN_CAMERA_VEC4S (the
// world position, normal and tangent) in the camera's lists, SKIN_SHADOW_VEC4S (the
// position) in the sun's.
layout(std430, set = 0, binding = BINDING_SKINNED) readonly buffer Skinned {
    vec4 skinned[];
};

// Where the skin pass left this vertex of the drawn instance `r` (its first vec4), or
// SKIN_NONE where its list was not skinned: the vertex shader skins it itself then. The
// list, and so the view and level, follow from gl_InstanceIndex (shaders/cull.glsl,
// list_start); a coarser level's vertices are numbered by its remap.
uint skinned_vertex_at(InstanceRecord r) {
    uint records = skin_table[SKIN_RECORDS];
    if (records == 0u) {
        return SKIN_NONE;
    }
    uint list = uint(gl_InstanceIndex) / records;
    uint view = list / uint(LIST_LEVELS);
    uint level = list % uint(LIST_LEVELS);
    uint e = skin_entry(view, r.model_flags & RECORD_MODEL_MASK, level);
    uint base = skin_table[e];
    if (base == SKIN_NONE) {
        return SKIN_NONE;
    }
    uint k = uint(gl_InstanceIndex) - skin_table[e + 1u];
    if (k >= skin_table[e + 6u]) {
        return SKIN_NONE; // past the instances the room took
    }
    uint local = uint(gl_VertexIndex);
    if (level > 0u) {
        local = skin_levels[skin_levels[level * 4u + 1u] + local];
    }
    return base + (k * level_vertex_count(level) + local) * skin_vec4s(view);
}
#endif

#endif
