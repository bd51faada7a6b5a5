// The visible lists the culling passes append to (shaders/cull.comp, shaders/cull_late.comp).
#ifndef THRONG_CULL_LISTS_GLSL
#define THRONG_CULL_LISTS_GLSL

#include "cull.glsl"

layout(std430, set = 0, binding = CULL_OUTPUT) writeonly buffer Lists {
    uint lists[];
};

// Appends `record` to the list of `view`, model and level (an atomic counter per list).
void append(uint view, uint model_index, CullModel model, uint level, uint record) {
    uint slot = atomicAdd(counters[counter_index(view, model_index, level)], 1u);
    // Without culling or levels every instance lands in level 0: keep the record order so
    // the frame is the same from run to run.
    if ((cull.counts.z & (CULL_FRUSTUM | CULL_LOD)) == 0u) {
        slot = record - model.range.x;
    }
    lists[list_start(view, level) + model.range.x + slot] = record;
}

#endif
