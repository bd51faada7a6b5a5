#version 460
// The indirect draws of the culled lists, one invocation per (view, model, subset): one
// VkDrawIndexedIndirectCommand per level that has instances, packed at the front, and their
// number, which vkCmdDrawIndexedIndirectCount reads; and subset 0's invocation writes the
// view's and model's impostor cards as one VkDrawIndirectCommand (an instance per card of four
// generated vertices, a triangle strip; none when no instance is a card). The CPU never reads the counts.
// Subset 0's invocation also reserves room in the skinned buffer for each of the view's and
// model's mesh lists (shaders/skin_table.glsl), and counts the workgroups the skin pass
// (shaders/skin.comp) then runs for them; and plans the mesh raster (shaders/mesh_raster.comp,
// shaders/mesh_shadow.comp): which of the camera's and the sun's lists it draws instead of the
// graphics passes, whose commands then leave them out, and the workgroups it runs for them.
#include "cull.glsl"
#define SKIN_TABLE_BINDING CULL_SKIN_TABLE
#define SKIN_TABLE_ACCESS
#define SKIN_TABLE_MODELS cull.counts.y
#include "skin_table.glsl"

layout(local_size_x = CULL_GROUP) in;

// Which views this dispatch builds the draws of: the early views before the occlusion test,
// the late camera view after it.
layout(push_constant) uniform Views {
    DRAW_VIEW_RANGE_FIELDS
} views;

// [view][model][subset]: how many commands follow.
layout(std430, set = 0, binding = CULL_OUTPUT) writeonly buffer DrawCounts {
    uint draw_counts[];
};

// [view][model][subset][level]
layout(std430, set = 0, binding = CULL_COMMANDS) writeonly buffer DrawCommands {
    DrawCommand commands[];
};

// [view][model]
layout(std430, set = 0, binding = CULL_CARD_COMMANDS) writeonly buffer CardCommands {
    CardCommand card_commands[];
};

// The vertices a list of `model` at `level` skins per instance.
uint level_vertices(CullModel model, uint level) {
    return level == 0u ? model.draws.w : model.level_vertices[level - 1u];
}

// Reserves room in the skinned buffer for as many of `n` instances of `vertices` vertices of
// `per_vertex` vec4s as fit, the list's first ones: the first vec4 and how many (`fit`), or
// SKIN_NONE where not one fits. A list larger than the room left is skinned in part rather
// than not at all (the rest by the vertex shaders or the mesh raster). The running total only
// grows by what fits, so it cannot wrap.
uint reserve_skinned(uint n, uint vertices, uint per_vertex, out uint fit) {
    fit = 0u;
    uint capacity = cull.skin.x;
    if (n == 0u || vertices == 0u || vertices > capacity / per_vertex) {
        return SKIN_NONE;
    }
    uint per_instance = vertices * per_vertex;
    uint used = skin_table[SKIN_USED];
    // Each failed exchange means another list's succeeded; a bound keeps the loop finite.
    for (uint attempt = 0u; attempt < 64u; attempt++) {
        uint take = min(n, (capacity - min(used, capacity)) / per_instance);
        if (take == 0u) {
            return SKIN_NONE;
        }
        uint seen = atomicCompSwap(skin_table[SKIN_USED], used, used + take * per_instance);
        if (seen == used) {
            fit = take;
            return used;
        }
        used = seen;
    }
    return SKIN_NONE;
}

// Writes the skin table's entries of `view` and `model` (one per mesh level), reserving
// room for those with instances, and adds their workgroups to the model's dispatch.
void plan_skinning(uint view, uint model_index, CullModel model) {
    uint args = skin_args(skin_phase(view), model_index);
    skin_table[args + 1u] = 1u;
    skin_table[args + 2u] = 1u;
    uint levels = min(model.range.w, uint(LOD_LEVELS));
    for (uint level = 0u; level < uint(LOD_LEVELS); level++) {
        uint e = skin_entry(view, model_index, level);
        uint n = level < levels ? counters[counter_index(view, model_index, level)] : 0u;
        uint vertices = level_vertices(model, level);
        uint fit;
        uint base = reserve_skinned(n, vertices, skin_vec4s(view), fit);
        uint groups = (fit * vertices + SKIN_GROUP - 1u) / SKIN_GROUP;
        skin_table[e] = base;
        skin_table[e + 1u] = list_start(view, level) + model.range.x;
        skin_table[e + 2u] = atomicAdd(skin_table[args], groups);
        skin_table[e + 3u] = n;
        skin_table[e + 6u] = fit;
    }
}

// The triangles per instance the mesh raster draws of `model`'s lists at `level` in `view`:
// from the first level it takes in that view (`cull.skin.y` the camera's, `cull.skin.z` the
// sun's; 0: none) on, of a model whose levels it can draw (`level_triangles`); 0 where the
// graphics passes draw them.
uint raster_triangles(CullModel model, uint view, uint level) {
    uint first = view == uint(VIEW_SHADOW) ? cull.skin.z : cull.skin.y;
    if (first == 0u || level < max(first, 1u)
        || level >= min(model.range.w, uint(LOD_LEVELS))) {
        return 0u;
    }
    return model.level_triangles[level - 1u];
}

// The views whose lists share the raster dispatch `view`'s lists are in: the camera's two
// (the late list after the early one, when the occlusion test runs) or the sun's alone.
uint raster_views(uint view) {
    if (view == uint(VIEW_SHADOW)) {
        return 1u;
    }
    return (cull.counts.z & CULL_OCCLUSION) != 0u ? 2u : 1u;
}

// The `i`th view of the raster dispatch `view`'s lists are in (raster_views).
uint raster_view(uint view, uint i) {
    if (view == uint(VIEW_SHADOW)) {
        return uint(VIEW_SHADOW);
    }
    return i == 0u ? uint(VIEW_CAMERA) : uint(VIEW_CAMERA_LATE);
}

// Where the mesh raster's dispatch of `model_index` for `view`'s eye starts the list of
// `view` and `level`: its first workgroup, or SKIN_NONE where the graphics passes draw it.
// Every invocation works it out alike from the final counts (the camera's lists before the
// late one's, levels in order), so the passes that draw and the one that plans agree without
// talking: a list takes whole workgroups while the dispatch stays within RASTER_MAX_GROUPS.
uint raster_first_group(uint view, uint model_index, CullModel model, uint level) {
    uint groups = 0u;
    for (uint i = 0u; i < raster_views(view); i++) {
        uint v = raster_view(view, i);
        for (uint l = 1u; l < uint(LOD_LEVELS); l++) {
            uint triangles = raster_triangles(model, v, l);
            uint n = triangles == 0u ? 0u : counters[counter_index(v, model_index, l)];
            uint need = n == 0u ? 0u
                : (n > RASTER_MAX_GROUPS * RASTER_GROUP_TRIANGLES / triangles
                   ? RASTER_MAX_GROUPS + 1u
                   : (n * triangles + RASTER_GROUP_TRIANGLES - 1u) / RASTER_GROUP_TRIANGLES);
            bool fits = need > 0u && need <= RASTER_MAX_GROUPS - groups;
            if (v == view && l == level) {
                return fits ? groups : SKIN_NONE;
            }
            if (fits) {
                groups += need;
            }
        }
    }
    return SKIN_NONE;
}

// Writes the mesh raster's words of `view`'s entries for `model` and its dispatch's size
// (every list of the model planned so far: the late pass's count includes the early ones).
void plan_raster(uint view, uint model_index, CullModel model) {
    uint phase = view == uint(VIEW_SHADOW) ? SHADOW_RASTER_PHASE : RASTER_PHASE;
    uint args = skin_args(phase, model_index);
    uint total = view == uint(VIEW_CAMERA_LATE) ? skin_table[args] : 0u;
    for (uint level = 0u; level < uint(LOD_LEVELS); level++) {
        uint e = skin_entry(view, model_index, level);
        uint triangles = raster_triangles(model, view, level);
        uint first = triangles == 0u ? SKIN_NONE
                                     : raster_first_group(view, model_index, model, level);
        skin_table[e + 4u] = first;
        skin_table[e + 5u] = triangles;
        if (first != SKIN_NONE) {
            uint n = skin_table[e + 3u];
            total = first + (n * triangles + RASTER_GROUP_TRIANGLES - 1u) / RASTER_GROUP_TRIANGLES;
        }
    }
    skin_table[args] = total;
    skin_table[args + 1u] = 1u;
    skin_table[args + 2u] = 1u;
}

void main() {
    if (gl_GlobalInvocationID.x == 0u) {
        // No records when nothing is skinned: the vertex shaders then skin at one read's
        // cost.
        skin_table[SKIN_RECORDS] = cull.skin.x > 0u ? cull.counts.x : 0u;
        skin_table[SKIN_MODELS] = cull.counts.y;
    }
    uint subsets = cull.counts.w;
    uint per_view = cull.counts.y * subsets;
    if (gl_GlobalInvocationID.x >= views.count * per_view) {
        return;
    }
    uint id = views.first * per_view + gl_GlobalInvocationID.x;
    uint view = id / per_view;
    uint model_index = (id % per_view) / subsets;
    uint subset = id % subsets;
    CullModel model = models[model_index];
    uint written = 0u;
    if (subset < model.draws.y) {
        // At most LOD_LEVELS whatever the buffer says (the loop bound is read from memory).
        uint levels = min(model.range.w, uint(LOD_LEVELS));
        for (uint level = 0u; level < levels; level++) {
            uint n = counters[counter_index(view, model_index, level)];
            uvec4 range = draw_ranges[model.draws.x + subset * LOD_LEVELS + level];
            if (n == 0u || range.y == 0u) {
                continue;
            }
            if (raster_triangles(model, view, level) > 0u
                && raster_first_group(view, model_index, model, level) != SKIN_NONE) {
                continue; // the mesh raster draws this list (plan_raster)
            }
            DrawCommand c;
            c.index_count = range.y;
            c.instance_count = n;
            c.first_index = range.x;
            c.vertex_offset = 0;
            c.first_instance = list_start(view, level) + model.range.x;
            commands[id * LOD_LEVELS + written] = c;
            written++;
        }
    }
    draw_counts[id] = written;
    if (subset == 0u) {
        plan_skinning(view, model_index, model);
        plan_raster(view, model_index, model);
        CardCommand c;
        c.vertex_count = 4u;
        c.instance_count = counters[counter_index(view, model_index, CARD_LEVEL)];
        c.first_vertex = 0u;
        c.first_instance = list_start(view, CARD_LEVEL) + model.range.x;
        card_commands[view * cull.counts.y + model_index] = c;
    }
}
