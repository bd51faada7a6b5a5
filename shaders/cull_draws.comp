#version 460
// The indirect draws of the culled lists, one invocation per (view, model, subset): one
// VkDrawIndexedIndirectCommand per level that has instances, packed at the front, and their
// number, which vkCmdDrawIndexedIndirectCount reads; and subset 0's invocation writes the
// view's and model's impostor cards as one VkDrawIndirectCommand (an instance per card of four
// generated vertices, a triangle strip; none when no instance is a card). The CPU never reads the counts.
#include "cull.glsl"

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

void main() {
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
            uvec2 range = draw_ranges[model.draws.x + subset * LOD_LEVELS + level];
            if (n == 0u || range.y == 0u) {
                continue;
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
        CardCommand c;
        c.vertex_count = 4u;
        c.instance_count = counters[counter_index(view, model_index, CARD_LEVEL)];
        c.first_vertex = 0u;
        c.first_instance = list_start(view, CARD_LEVEL) + model.range.x;
        card_commands[view * cull.counts.y + model_index] = c;
    }
}
