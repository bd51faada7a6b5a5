#version 460
// Skinning once per frame (src/gpu/frame/skinning.rs): every vertex of every instance in the
// lists of one model that shaders/cull_draws.comp found room for, skinned and placed in the
// world once, for every pass that draws the list. One invocation per vertex of an instance;
// each list owns whole workgroups of its model's dispatch (from its entry's first one), so a
// workgroup finds its list among at most ten entries. The arithmetic is the vertex shaders'
// own (skinning.glsl), so what is drawn is what they would have drawn.
#define SKIN_PASS
#include "mesh_words.glsl"
#include "renderer_layouts.glsl"

layout(local_size_x = SKIN_GROUP) in;

layout(push_constant) uniform Target {
    SKIN_TARGET_FIELDS // src/gpu/frame/device_layouts.rs
} target;

layout(std430, set = 0, binding = BINDING_SKINNED) writeonly buffer Skinned {
    vec4 skinned[];
};

// Skins mesh vertex `v` of the instance in visible slot `slot` for `view`, into the vec4s
// from `at`.
void skin_vertex(uint view, uint slot, uint v, uint at) {
    InstanceRecord r = records[visible[slot] & VISIBLE_RECORD_MASK];
    uint w = v * VERTEX_WORDS;
    mat3x4 skin = vertex_skin(r, v);
    skinned[at] = vec4(skinned_world_position(r, skin, word_vec3(w)), 1.0);
    if (view != VIEW_SHADOW) {
        skinned[at + 1u] = vec4(skinned_world_direction(r, skin, word_vec3(w + 3u)), 0.0);
        skinned[at + 2u] = vec4(skinned_world_direction(r, skin, word_vec3(w + 6u)), 0.0);
    }
}

void main() {
    uint group = gl_WorkGroupID.x;
    uint first_view = target.phase == 0u ? uint(VIEW_CAMERA) : uint(VIEW_CAMERA_LATE);
    uint last_view = target.phase == 0u ? uint(VIEW_SHADOW) : uint(VIEW_CAMERA_LATE);
    for (uint view = first_view; view <= last_view; view++) {
        for (uint level = 0u; level < uint(LOD_LEVELS); level++) {
            uint e = skin_entry(view, target.model, level);
            uint base = skin_table[e];
            uint first_group = skin_table[e + 2u];
            if (base == SKIN_NONE || group < first_group) {
                continue;
            }
            uint vertices = level_vertex_count(level);
            uint n = skin_table[e + 6u] * vertices; // the instances it found room for
            if (group >= first_group + (n + SKIN_GROUP - 1u) / SKIN_GROUP) {
                continue;
            }
            uint t = (group - first_group) * SKIN_GROUP + gl_LocalInvocationID.x;
            if (t >= n) {
                return;
            }
            uint k = t / vertices;
            uint j = t - k * vertices;
            uint v = level == 0u ? j : skin_levels[skin_levels[level * 4u + 2u] + j];
            skin_vertex(view, skin_table[e + 1u] + k, v, base + t * skin_vec4s(view));
            return;
        }
    }
}
